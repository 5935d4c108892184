// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    const int code = tessera::app::runCli(args, std::cout, std::cerr);
    // A full disk or a closed pipe behind stdout shows only when the buffer is flushed: what the
    // command printed was lost, so the run failed.
    errno = 0;
    std::cout.flush();
    if (!std::cout) {
        const int err = errno;
        std::cerr << "tessera-cli: cannot write to standard output"
                  << (err != 0 ? std::string(": ") + std::strerror(err) : "") << "\n";
        return code == 0 ? 1 : code;
    }
    return code;
}
