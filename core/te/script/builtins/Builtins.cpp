#include "te/script/builtins/Builtins.h"

#include <algorithm>

namespace tessel::te::script {

const std::vector<BuiltinInstaller>& builtinInstallers() {
    static const std::vector<BuiltinInstaller> kInstallers = {
        installPython,   installTensorExpr, installMath,   installObjects,
        installSchedule, installBuild,      installConfig, installWorkload,
    };
    return kInstallers;
}

// ---------------------------------------------------------------------------

ModuleBuilder::ModuleBuilder(std::string name) : m_(std::make_shared<ModuleObject>()) {
    m_->name = std::move(name);
}

void ModuleBuilder::fn(const std::string& name, NativeFunction f) {
    add(name, Interpreter::makeFunction(m_->name + "." + name, std::move(f)));
}

void ModuleBuilder::add(const std::string& name, Value v) {
    for (auto& [n, existing] : m_->members)
        if (n == name) {
            existing = std::make_shared<const Value>(std::move(v));
            return;
        }
    m_->members.emplace_back(name, std::make_shared<const Value>(std::move(v)));
}

const Value* ModuleBuilder::find(const std::string& name) const {
    return m_->find(name);
}

Value ModuleBuilder::value() const {
    return Value(std::shared_ptr<const ModuleObject>(m_));
}

const std::string& ModuleBuilder::name() const {
    return m_->name;
}

// ---------------------------------------------------------------------------

BuiltinTable::BuiltinTable(std::shared_ptr<ScriptRecorder> recorder)
    : recorder_(std::move(recorder)) {}

ModuleBuilder& BuiltinTable::module(const std::string& path) {
    for (auto& [p, m] : modules_)
        if (p == path) return *m;
    modules_.emplace_back(path, std::make_unique<ModuleBuilder>(path));
    ModuleBuilder& m = *modules_.back().second;
    if (auto dot = path.rfind('.'); dot != std::string::npos)
        module(path.substr(0, dot)).add(path.substr(dot + 1), m.value());
    return m;
}

void BuiltinTable::setImportable(const std::string& root) {
    module(root);
    importable_.push_back(root);
}

void BuiltinTable::hide(const std::string& root) {
    hidden_.push_back(root);
}

void BuiltinTable::alias(const std::string& path, const std::string& existing) {
    auto dot = path.rfind('.');
    Value target = module(existing).value();
    if (dot == std::string::npos)
        values_[path] = target;
    else
        module(path.substr(0, dot)).add(path.substr(dot + 1), target);
}

void BuiltinTable::function(const std::string& name, NativeFunction f) {
    values_[name] = Interpreter::makeFunction(name, std::move(f));
}

void BuiltinTable::value(const std::string& name, Value v) {
    values_[name] = std::move(v);
}

TypeInfo& BuiltinTable::type(Value::Kind kind, const std::string& name) {
    TypeInfo& t = types_[int(kind)];
    t.name = name;
    return t;
}

std::unordered_map<std::string, Value> BuiltinTable::globals() const {
    std::unordered_map<std::string, Value> out = values_;
    for (auto& [path, m] : modules_)
        if (path.find('.') == std::string::npos &&
            std::find(hidden_.begin(), hidden_.end(), path) == hidden_.end())
            out[path] = m->value();
    return out;
}

std::unordered_map<std::string, Value> BuiltinTable::importable() const {
    std::unordered_map<std::string, Value> out;
    for (auto& root : importable_)
        for (auto& [path, m] : modules_)
            if (path == root) out[root] = m->value();
    return out;
}

} // namespace tessel::te::script
