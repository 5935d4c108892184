// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <string>

namespace tessera::app {

/// The values an output name template can use.
struct NameFields {
    std::string stem;    ///< the input's file name without its extension
    std::string ext;     ///< the input's extension without the dot, as written
    std::string filter;  ///< filterLabel() of the chain, or a name the user gave
    int index = 1;       ///< position of the input, from 1
    int count = 1;       ///< number of inputs, for the zero padding of {index}
    std::string date;    ///< the run's start date, "2024-05-31"
};

/// Fills {stem}, {ext}, {filter}, {index} (zero-padded to the digits of count) and {date}.
/// Throws std::invalid_argument for an unknown or unclosed field, a '/' or '\\' in the result,
/// or an empty result.
std::string expandNameTemplate(const std::string& nameTemplate, const NameFields& fields);

/// Throws std::invalid_argument as expandNameTemplate() would for any input.
void checkNameTemplate(const std::string& nameTemplate);

/// The steps' registry ids joined by '+' ("gaussian+sobel"), kept to letters, digits, '-',
/// '_' and '+'; "none" for an empty chain.
std::string filterLabel(const filters::FilterChain& chain);

/// Today's local date as "YYYY-MM-DD".
std::string todayDate();

}  // namespace tessera::app
