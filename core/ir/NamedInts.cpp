#include "ir/NamedInts.h"

#include "ir/Diagnostic.h"

#include <algorithm>

namespace tessel {

std::map<std::string, int64_t> parseNamedInts(std::string_view text, const NamedIntsSyntax& syntax) {
    std::map<std::string, int64_t> values;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        std::string item(text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
        pos = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
        if (item.empty()) continue;
        size_t eq = item.find('=');
        std::string name = item.substr(0, eq == std::string::npos ? 0 : eq);
        std::string number = eq == std::string::npos ? "" : item.substr(eq + 1);
        size_t sign = syntax.allowNegative && number.starts_with('-') ? 1 : 0;
        bool ok = !name.empty() && number.size() > sign && number.size() <= sign + 18 &&
                  std::all_of(number.begin() + long(sign), number.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        if (!ok) throw CompileError(syntax.what + " item '" + item + "' is not " + syntax.form);
        if (syntax.refuseRepeats && values.count(name))
            throw CompileError(syntax.what + " parameter '" + name + "' is given twice");
        values[name] = std::stoll(number);
    }
    return values;
}

} // namespace tessel
