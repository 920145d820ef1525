#include "plugin/PluginLoader.h"

#include "plugin/PluginApi.h"
#include "tune/CostModel.h"

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef TESSEL_VERSION
#define TESSEL_VERSION "unknown"
#endif
#ifndef TESSEL_PLUGIN_INSTALL_DIR
#define TESSEL_PLUGIN_INSTALL_DIR "lib/tessel/plugins"
#endif

namespace tessel::plugin {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Fills `out` field by field, so that a refused plugin still shows the
/// fields read before the one that is wrong (its id, usually).
void readMetadata(const json& j, std::string_view source, PluginMetadata& out) {
    const std::string src(source);
    if (!j.is_object()) throw std::runtime_error(src + ": not a JSON object");
    auto field = [&](const char* key) -> const json& {
        auto it = j.find(key);
        if (it == j.end()) throw std::runtime_error(src + " has no \"" + key + "\"");
        return *it;
    };
    auto text = [&](const char* key, bool required) -> std::string {
        if (!required && !j.contains(key)) return {};
        const json& v = field(key);
        if (!v.is_string())
            throw std::runtime_error("\"" + std::string(key) + "\" in " + src +
                                     " must be a string");
        std::string s = v.get<std::string>();
        if (required && s.empty())
            throw std::runtime_error("\"" + std::string(key) + "\" in " + src + " is empty");
        return s;
    };
    out.id = text("id", true);
    if (!std::all_of(out.id.begin(), out.id.end(), [](unsigned char c) {
            return std::isalnum(c) || c == '-' || c == '_' || c == '.';
        }))
        throw std::runtime_error("\"id\" in " + src +
                                 " must be letters, digits, '-', '_' and '.' only, not '" + out.id +
                                 "'");
    out.name = text("name", true);
    out.version = text("version", true);
    const json& abi = field("abi");
    if (!abi.is_number_integer())
        throw std::runtime_error("\"abi\" in " + src + " must be an integer");
    out.abi = abi.get<int>();
    out.library = text("library", true);
    const fs::path lib(out.library);
    if (lib.is_absolute() ||
        std::any_of(lib.begin(), lib.end(), [](const fs::path& p) { return p == ".."; }))
        throw std::runtime_error("\"library\" in " + src +
                                 " must be a path inside the plugin folder, not '" + out.library +
                                 "'");
    const json& provides = field("provides");
    if (!provides.is_array())
        throw std::runtime_error("\"provides\" in " + src + " must be an array of strings");
    for (const json& p : provides) {
        if (!p.is_string())
            throw std::runtime_error("\"provides\" in " + src + " must be an array of strings");
        out.provides.push_back(p.get<std::string>());
    }
    out.description = text("description", false);
}

/// Parses `text` and fills `out` (as far as it is right); throws saying what is wrong.
void parseInto(std::string_view text, std::string_view source, PluginMetadata& out) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw std::runtime_error(std::string(source) + " is not valid JSON: " + e.what());
    }
    readMetadata(j, source, out);
}

fs::path normalised(const fs::path& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    if (ec) abs = p;
    fs::path canon = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal() : canon;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void addCostModelToRegistry(tune::CostModelRegistry& registry, tune::CostModelRecord record) {
    registry.add(std::move(record));
}

/// dlclose at the end of a scope, unless released (a loaded plugin stays).
struct LibraryHandle {
    void* handle = nullptr;
    ~LibraryHandle() {
        if (handle) ::dlclose(handle);
    }
    void release() { handle = nullptr; }
};

/// Loads and registers; returns the refusal and fills `status`. Separate
/// from loadPlugin so that the scratch registry (which may hold functions of
/// the plugin's code) is gone before the library is closed.
Refusal loadLibrary(PluginStatus& status, const Registries& into, LibraryHandle& library) {
    const PluginMetadata& m = status.metadata;
    const fs::path libPath = status.dir / m.library;
    std::error_code ec;
    if (!fs::is_regular_file(libPath, ec)) {
        status.reason = "its library '" + m.library + "' is not in " + status.dir.string();
        return Refusal::LibraryMissing;
    }
    ::dlerror();
    library.handle = ::dlopen(libPath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library.handle) {
        const char* why = ::dlerror();
        status.reason = "cannot load '" + m.library + "': " + (why ? why : "dlopen failed");
        return Refusal::LibraryUnloadable;
    }
    auto entry = reinterpret_cast<RegisterFunction>(::dlsym(library.handle, kRegisterSymbol));
    if (!entry) {
        status.reason = "'" + m.library + "' has no entry point " + kRegisterSymbol +
                        " (export it with TESSEL_PLUGIN_EXPORT, see plugin/PluginApi.h)";
        return Refusal::NoEntryPoint;
    }

    tune::CostModelRegistry scratch;
    const std::string dir = status.dir.string();
    PluginHost host;
    host.tesselVersion = TESSEL_VERSION;
    host.pluginDir = dir.c_str();
    host.costModels = &scratch;
    host.addCostModel = &addCostModelToRegistry;
    char error[2048] = {};
    int rc = 0;
    std::string thrown;
    try {
        rc = entry(&host, error, sizeof error);
    } catch (const std::exception& e) {
        rc = -1, thrown = e.what();
    } catch (...) {
        rc = -1, thrown = "an exception that is not a std::exception";
    }
    if (rc != 0) {
        error[sizeof error - 1] = '\0';
        std::string why = !thrown.empty() ? "it threw " + thrown
                          : error[0]      ? std::string(error)
                                     : "it returned " + std::to_string(rc) + " without a message";
        status.reason = "registration failed: " + why;
        return Refusal::RegistrationFailed;
    }
    for (const tune::CostModelRecord& r : scratch.records())
        if (const tune::CostModelRecord* taken = into.costModels->find(r.name)) {
            status.reason = "it registers cost model '" + r.name + "', which " + taken->origin +
                            " already provides";
            return Refusal::NameTaken;
        }
    for (const tune::CostModelRecord& r : scratch.records()) {
        tune::CostModelRecord moved = r;
        moved.origin = dir;
        into.costModels->add(std::move(moved));
        status.registered.push_back("cost-model:" + r.name);
    }
    library.release();
    return Refusal::None;
}

} // namespace

const char* refusalName(Refusal r) {
    switch (r) {
    case Refusal::None:
        return "loaded";
    case Refusal::BadMetadata:
        return "bad metadata";
    case Refusal::AbiMismatch:
        return "ABI mismatch";
    case Refusal::DuplicateId:
        return "duplicate id";
    case Refusal::LibraryMissing:
        return "library missing";
    case Refusal::LibraryUnloadable:
        return "library unloadable";
    case Refusal::NoEntryPoint:
        return "no entry point";
    case Refusal::RegistrationFailed:
        return "registration failed";
    case Refusal::NameTaken:
        return "name taken";
    }
    return "unknown";
}

const PluginStatus* PluginSet::find(std::string_view id) const {
    const PluginStatus* refused = nullptr;
    for (const PluginStatus& p : plugins_) {
        if (p.metadata.id != id) continue;
        if (p.loaded()) return &p;
        if (!refused) refused = &p;
    }
    return refused;
}

size_t PluginSet::loadedCount() const {
    return static_cast<size_t>(
        std::count_if(plugins_.begin(), plugins_.end(), [](auto& p) { return p.loaded(); }));
}

PluginMetadata parseMetadata(std::string_view text, std::string_view source) {
    PluginMetadata m;
    parseInto(text, source, m);
    return m;
}

std::vector<fs::path> defaultSearchPath() {
    std::vector<fs::path> path;
    if (const char* env = std::getenv("TESSEL_PLUGIN_PATH")) {
        std::stringstream ss(env);
        std::string entry;
        while (std::getline(ss, entry, ':'))
            if (!entry.empty()) path.emplace_back(entry);
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path prefix = self.parent_path().parent_path();
        path.push_back(prefix / "plugins");
        path.push_back(prefix / TESSEL_PLUGIN_INSTALL_DIR);
    }
    return path;
}

const PluginStatus& loadPlugin(const fs::path& pluginDir, const Registries& into, PluginSet& set) {
    if (!into.costModels) throw std::invalid_argument("loadPlugin: no cost model registry given");
    PluginStatus status;
    status.dir = normalised(pluginDir);
    const fs::path metaPath = status.dir / "plugin.json";
    try {
        parseInto(readText(metaPath), "plugin.json", status.metadata);
    } catch (const std::exception& e) {
        status.refusal = Refusal::BadMetadata;
        status.reason = e.what();
        set.add(std::move(status));
        return set.plugins().back();
    }
    const PluginMetadata& m = status.metadata;
    if (m.abi != kPluginAbi) {
        status.refusal = Refusal::AbiMismatch;
        status.reason = "plugin.json says ABI " + std::to_string(m.abi) +
                        ", this Tessel speaks ABI " + std::to_string(kPluginAbi) +
                        " (rebuild the plugin against this Tessel's headers)";
    } else if (const PluginStatus* other = set.find(m.id); other && other->loaded()) {
        status.refusal = Refusal::DuplicateId;
        status.reason =
            "a plugin with id '" + m.id + "' is already loaded from " + other->dir.string();
    } else {
        LibraryHandle library;
        status.refusal = loadLibrary(status, into, library);
    }
    set.add(std::move(status));
    return set.plugins().back();
}

void loadPlugins(const std::vector<fs::path>& searchPath, const Registries& into, PluginSet& set) {
    if (!into.costModels) throw std::invalid_argument("loadPlugins: no cost model registry given");
    auto seen = [&](const fs::path& dir) {
        return std::any_of(set.plugins().begin(), set.plugins().end(),
                           [&](auto& p) { return p.dir == dir; });
    };
    for (const fs::path& entry : searchPath) {
        const fs::path dir = normalised(entry);
        if (std::any_of(set.searched().begin(), set.searched().end(),
                        [&](auto& s) { return s.dir == dir; }))
            continue;
        std::error_code ec;
        const bool exists = fs::is_directory(dir, ec);
        set.addSearched({dir, exists});
        if (!exists) continue;
        if (fs::exists(dir / "plugin.json", ec)) {
            if (!seen(dir)) loadPlugin(dir, into, set);
            continue;
        }
        std::vector<fs::path> folders;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_directory(ec) && fs::exists(it->path() / "plugin.json", ec))
                folders.push_back(it->path());
        std::sort(folders.begin(), folders.end());
        for (const fs::path& f : folders)
            if (!seen(normalised(f))) loadPlugin(f, into, set);
    }
}

} // namespace tessel::plugin
