/// \file
/// Internal invariant checks. A failed check is a bug in Tessel, not in the
/// user's input; it throws InternalError (with a message) so that the IDE can
/// report it instead of dying.
#pragma once

#include <stdexcept>
#include <string>

namespace tessel {

class InternalError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

[[noreturn]] void failCheck(const char* cond, const char* file, int line, const std::string& msg);

} // namespace tessel

#define TESSEL_CHECK(cond, msg)                                                                    \
    do {                                                                                           \
        if (!(cond)) ::tessel::failCheck(#cond, __FILE__, __LINE__, (msg));                        \
    } while (0)
