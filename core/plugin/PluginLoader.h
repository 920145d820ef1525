/// \file
/// Finds plugin folders, checks their metadata, loads their libraries with
/// dlopen and lets them register into core's registries (plugin/PluginApi.h
/// is what a plugin sees; plugins/README.md how to write one).
///
/// The search path (defaultSearchPath()) is, in order: each entry of
/// TESSEL_PLUGIN_PATH (colon separated), `<bin>/../plugins` (a build tree:
/// the binaries in <build>/bin, the plugins in <build>/plugins/<id>/), and
/// `<bin>/../lib/tessel/plugins` (installed, /usr/lib/tessel/plugins for the
/// Debian package). A folder on it is either a plugin folder itself (it holds
/// plugin.json) or a folder of plugin folders; subfolders without plugin.json
/// are not plugins and are passed over silently.
///
/// Each plugin is loaded or refused, with the reason (Refusal), and a refused
/// plugin changes no registry: its registration runs against scratch
/// registries whose records are moved into the real ones only when it
/// succeeds and none of its names is taken. Two plugins with one id: the one
/// found first on the path wins, the other is refused as a duplicate (so a
/// folder on TESSEL_PLUGIN_PATH overrides an installed plugin).
///
/// A loaded plugin's library stays loaded for the life of the process (never
/// dlclose'd): the registries hold its factories and the models they made
/// run its code. Refused libraries are closed again.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::tune {
class CostModelRegistry;
}

namespace tessel::plugin {

/// What plugin.json says (the fields that could be read, for a refused one).
struct PluginMetadata {
    std::string id;      ///< unique, [A-Za-z0-9._-]+ ("costmodel-xgboost")
    std::string name;    ///< for people ("XGBoost cost model")
    std::string version; ///< the plugin's own version ("1.0")
    int abi = 0;         ///< the plugin ABI it was built for (PluginApi.h's kPluginAbi)
    std::string library; ///< the shared library, relative to the plugin folder
    std::vector<std::string> provides; ///< what it says it registers ("cost-model:xgb")
    std::string description;           ///< optional, one line
};

/// Why a plugin was refused.
enum class Refusal {
    None,           ///< loaded
    BadMetadata,    ///< plugin.json missing a field, unreadable, not JSON, or a field of the wrong
                    ///< type
    AbiMismatch,    ///< "abi" is not this Tessel's kPluginAbi
    DuplicateId,    ///< a plugin with this id was loaded before
    LibraryMissing, ///< the file "library" names is not there
    LibraryUnloadable,  ///< dlopen failed (dlerror says why: not a library, missing dependency,
                        ///< undefined symbol)
    NoEntryPoint,       ///< the library has no tessel_plugin_register
    RegistrationFailed, ///< the entry point returned an error (or threw)
    NameTaken,          ///< it registered a name another plugin or the built-ins already have
};

/// A short name for a refusal kind ("bad metadata", "ABI mismatch" ...; "loaded" for None).
const char* refusalName(Refusal r);

/// One plugin folder the loader looked at, and what came of it.
struct PluginStatus {
    std::filesystem::path dir; ///< the plugin folder (absolute)
    PluginMetadata metadata;
    Refusal refusal = Refusal::None;
    /// Why it was refused, as one sentence ("" when loaded).
    std::string reason;
    /// What it registered, as "cost-model:NAME" (empty when refused).
    std::vector<std::string> registered;

    bool loaded() const { return refusal == Refusal::None; }
};

/// One folder of the search path, and whether it was there.
struct SearchedFolder {
    std::filesystem::path dir;
    bool exists = false;
};

/// What a load found: every plugin folder looked at, loaded or refused, in
/// the order found, and the folders searched. Loads append to it.
class PluginSet {
public:
    const std::vector<PluginStatus>& plugins() const { return plugins_; }
    const std::vector<SearchedFolder>& searched() const { return searched_; }
    /// The loaded plugin with this id, or else the first refused one with it; null when none.
    const PluginStatus* find(std::string_view id) const;
    size_t loadedCount() const;
    size_t refusedCount() const { return plugins_.size() - loadedCount(); }

    void add(PluginStatus status) { plugins_.push_back(std::move(status)); }
    void addSearched(SearchedFolder folder) { searched_.push_back(std::move(folder)); }

private:
    std::vector<PluginStatus> plugins_;
    std::vector<SearchedFolder> searched_;
};

/// The registries plugins register into (PluginHost's, on the host side).
struct Registries {
    tune::CostModelRegistry* costModels = nullptr;
};

/// TESSEL_PLUGIN_PATH's entries, then the build tree's and the installed
/// plugin folders next to this executable (see the file comment).
std::vector<std::filesystem::path> defaultSearchPath();

/// Loads every plugin found in the folders of `searchPath` into `into`,
/// appending what happened to `set` (ids already loaded in `set` are
/// duplicates). A folder visited before (the same path twice) is skipped.
void loadPlugins(const std::vector<std::filesystem::path>& searchPath, const Registries& into,
                 PluginSet& set);

/// Loads the one plugin in folder `pluginDir` (which holds plugin.json) into
/// `into`, appends its status to `set` and returns it.
const PluginStatus& loadPlugin(const std::filesystem::path& pluginDir, const Registries& into,
                               PluginSet& set);

/// Reads and checks plugin.json's text (`source` names it in messages).
/// Throws std::runtime_error saying what is wrong with it.
PluginMetadata parseMetadata(std::string_view json, std::string_view source = "plugin.json");

} // namespace tessel::plugin
