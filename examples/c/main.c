/* SPDX-License-Identifier: Apache-2.0
 * Blurs a horizontal ramp with a 3x3 box through libtessera's C interface, checks that the
 * inside of the ramp is unchanged (a box filter keeps a linear ramp), and writes the result.
 *   tessera-c-example [OUTPUT.png]                                                          */
#include <tessera/tessera.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { WIDTH = 64, HEIGHT = 48 };

static int fail(const char* what)
{
    fprintf(stderr, "tessera-c-example: %s: %s\n", what, tessera_last_error());
    return 1;
}

int main(int argc, char** argv)
{
    const char* output = argc > 1 ? argv[1] : "ramp-box.png";
    static uint8_t src[HEIGHT][WIDTH], dst[HEIGHT][WIDTH];
    for (int y = 0; y < HEIGHT; ++y)
        for (int x = 0; x < WIDTH; ++x)
            src[y][x] = (uint8_t)(x * 4);

    printf("libtessera %s, C interface %d (built against %d)\n", tessera_version(), tessera_api_version(),
           TESSERA_C_API_VERSION);
    if (tessera_api_version() < TESSERA_C_API_VERSION) {
        fprintf(stderr, "tessera-c-example: the library is older than its header\n");
        return 1;
    }

    tessera_image image = {src, WIDTH, HEIGHT, WIDTH, 1, TESSERA_U8};
    tessera_options options;
    memset(&options, 0, sizeof options);
    options.device = "auto";
    const char* chain = "{\"filters\": [{\"id\": \"box\", \"params\": {\"size\": 3}}]}";

    tessera_plan* plan = NULL;
    if (tessera_plan_create(&image, TESSERA_HOST_MEMORY, chain, &options, &plan, NULL, NULL) != TESSERA_OK)
        return fail("plan");
    const tessera_status status = tessera_plan_run_host(plan, src, WIDTH, dst, WIDTH);
    tessera_plan_free(plan);
    if (status != TESSERA_OK)
        return fail("run");

    for (int y = 1; y < HEIGHT - 1; ++y)
        for (int x = 1; x < WIDTH - 1; ++x)
            if (dst[y][x] != src[y][x]) {
                fprintf(stderr, "tessera-c-example: pixel (%d, %d) is %d, expected %d\n", x, y, dst[y][x],
                        src[y][x]);
                return 1;
            }

    const char* where = NULL;
    if (tessera_last_run(TESSERA_REPORT_JSON, &where) != TESSERA_OK)
        return fail("last run");
    printf("box 3x3 on %dx%d: the ramp's inside is unchanged\nrun: %.120s...\n", WIDTH, HEIGHT, where);

    tessera_image result = {dst, WIDTH, HEIGHT, WIDTH, 1, TESSERA_U8};
    const char* encoding = NULL;
    if (tessera_write_image(output, &result, 1, NULL, "9", &encoding) != TESSERA_OK)
        return fail(output);
    printf("wrote %s (%s)\n", output, encoding);
    return 0;
}
