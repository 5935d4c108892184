// SPDX-License-Identifier: Apache-2.0
// Runs a Gaussian (sigma 1.5) on a 32-bit float impulse through <tessera/tessera.hpp>, checks
// that the result is symmetric and sums to one, and writes it as a float TIFF.
//   tessera-cpp-example [OUTPUT.tif]
#include <tessera/tessera.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char** argv)
{
    const std::string output = argc > 1 ? argv[1] : "impulse-gaussian.tif";
    constexpr int size = 33;
    std::vector<float> src(size * size, 0.0f), dst(size * size, -1.0f);
    src[(size / 2) * size + size / 2] = 1.0f;

    try {
        std::printf("libtessera %s\n", tessera::api::version().c_str());
        const tessera_image image = tessera::api::hostImage(src.data(), size, size, 1, TESSERA_F32);
        const tessera::api::Plan plan(image, R"({"filters": [{"id": "gaussian", "params": {"sigma": 1.5}}]})");
        plan.runHost(src.data(), size * sizeof(float), dst.data(), size * sizeof(float));

        double sum = 0.0;
        float asymmetry = 0.0f;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x) {
                sum += dst[y * size + x];
                asymmetry = std::fmax(asymmetry, std::fabs(dst[y * size + x] - dst[x * size + (size - 1 - y)]));
            }
        std::printf("gaussian on a %dx%d impulse: sum %.6f, largest asymmetry %g\n", size, size, sum, asymmetry);
        if (std::fabs(sum - 1.0) > 1e-4 || asymmetry > 1e-6f) {
            std::fprintf(stderr, "tessera-cpp-example: the blurred impulse is not a normalised symmetric kernel\n");
            return 1;
        }
        std::printf("run: %.120s...\n", tessera::api::lastRunJson().c_str());
        const tessera_image result = tessera::api::hostImage(dst.data(), size, size, 1, TESSERA_F32);
        std::printf("wrote %s (%s)\n", output.c_str(), tessera::api::writeImage(output, result).c_str());
    } catch (const tessera::api::Error& e) {
        std::fprintf(stderr, "tessera-cpp-example: %s (status %d)\n", e.what(), static_cast<int>(e.status()));
        return 1;
    }
    return 0;
}
