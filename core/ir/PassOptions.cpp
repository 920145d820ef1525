#include "ir/PassOptions.h"

#include "ir/Diagnostic.h"

#include <cctype>
#include <charconv>

namespace tessel {

namespace {
std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}
} // namespace

const PassOption* findPassOption(const std::vector<PassOption>& options, const std::string& name) {
    for (auto& o : options)
        if (o.name == name) return &o;
    return nullptr;
}

PassSpec parsePassSpec(const std::string& text) {
    PassSpec spec;
    std::string t = trim(text);
    size_t brace = t.find('{');
    spec.name = trim(t.substr(0, brace));
    if (spec.name.empty()) throw CompileError("empty pass name in pipeline entry '" + text + "'");
    if (brace == std::string::npos) return spec;
    if (t.back() != '}') throw CompileError("pipeline entry '" + text + "' lacks a closing '}'");
    std::string body = t.substr(brace + 1, t.size() - brace - 2);
    size_t pos = 0;
    while (pos <= body.size()) {
        size_t comma = body.find(',', pos);
        std::string item = trim(body.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
        if (!item.empty()) {
            size_t eq = item.find('=');
            if (eq == std::string::npos)
                throw CompileError("option '" + item + "' of pass " + spec.name + " needs a value (name=value)");
            spec.options[trim(item.substr(0, eq))] = trim(item.substr(eq + 1));
        }
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return spec;
}

void checkPassOptions(const std::string& what, const std::vector<PassOption>& options,
                      const PassOptionValues& values) {
    for (auto& [name, value] : values) {
        if (findPassOption(options, name)) continue;
        std::string known;
        for (auto& o : options) known += (known.empty() ? "" : ", ") + o.name;
        throw CompileError(what + " has no option '" + name + "'" +
                           (known.empty() ? " (it has no options)" : "; its options are: " + known));
    }
}

int64_t passOptionInt(const PassOptionValues& values, const std::string& name, int64_t fallback) {
    auto it = values.find(name);
    if (it == values.end()) return fallback;
    const std::string& s = it->second;
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        throw CompileError("option " + name + " needs an integer, got '" + s + "'");
    return v;
}

bool passOptionBool(const PassOptionValues& values, const std::string& name, bool fallback) {
    auto it = values.find(name);
    if (it == values.end()) return fallback;
    const std::string& s = it->second;
    if (s == "true" || s == "1" || s == "on") return true;
    if (s == "false" || s == "0" || s == "off") return false;
    throw CompileError("option " + name + " needs true or false, got '" + s + "'");
}

} // namespace tessel
