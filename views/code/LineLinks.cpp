#include "code/LineLinks.h"

#include "common/LineDiff.h"
#include "driver/FunctionArtifacts.h"
#include "te/script/Script.h"
#include "tir/IRPrinter.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace tessel::views {

namespace {

int indentOf(std::string_view line) {
    int n = 0;
    while (n < int(line.size()) && line[size_t(n)] == ' ')
        ++n;
    return n;
}

bool blank(std::string_view line) {
    return indentOf(line) == int(line.size());
}

std::string_view trimmed(std::string_view line) {
    return line.substr(size_t(indentOf(line)));
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The identifier at the start of `s` (empty when none).
std::string_view leadingIdent(std::string_view s) {
    size_t n = 0;
    while (n < s.size() && identChar(s[n]))
        ++n;
    if (n && std::isdigit(static_cast<unsigned char>(s[0]))) return {};
    return s.substr(0, n);
}

void sortUnique(std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

// ---------------------------------------------------------------------------
// The TIR text: its loops (by variable identity when the printer's line table
// matches the text, else by name), loop bodies and the statements of a buffer.

struct TirText {
    std::vector<std::string_view> lines;
    /// Loop lines per loop variable (identity) and per variable name.
    std::unordered_map<const tir::VarNode*, std::vector<int>> loopsOfVar;
    std::unordered_map<std::string, std::vector<int>> loopsByName;
    bool identity = false;

    std::string_view line(int l) const { return lines[size_t(l - 1)]; }
    int count() const { return int(lines.size()); }

    /// The non-empty lines nested in the block that starts at `head` (a `for`).
    std::vector<int> bodyOf(int head) const {
        std::vector<int> out;
        int ind = indentOf(line(head));
        for (int l = head + 1; l <= count(); ++l) {
            if (blank(line(l))) continue;
            if (indentOf(line(l)) <= ind) break;
            out.push_back(l);
        }
        return out;
    }

    /// The buffer the first store in the block at `head` writes (empty if none).
    std::string_view firstStoreIn(int head) const {
        for (int l : bodyOf(head)) {
            std::string_view t = trimmed(line(l));
            std::string_view id = leadingIdent(t);
            if (!id.empty() && t.size() > id.size() && t[id.size()] == '[') return id;
        }
        return {};
    }

    /// Lines that allocate, realize or store into buffer `name`.
    std::vector<int> statementsOf(const std::string& name) const {
        std::vector<int> out;
        const std::string store = name + "[", alloc = name + " = T.allocate(",
                          realize = "with T.realize(" + name + "[";
        for (int l = 1; l <= count(); ++l) {
            std::string_view t = trimmed(line(l));
            if (startsWith(t, store) || startsWith(t, alloc) || startsWith(t, realize))
                out.push_back(l);
        }
        return out;
    }
};

TirText readTir(const driver::FunctionArtifacts& a) {
    TirText t;
    t.lines = splitLines(a.build.tir);
    static const std::regex forLine(R"(^\s*for (\w+) in )");
    for (int l = 1; l <= t.count(); ++l) {
        std::string_view s = t.line(l);
        std::match_results<std::string_view::const_iterator> m;
        if (startsWith(trimmed(s), "for ") && std::regex_search(s.begin(), s.end(), m, forLine))
            t.loopsByName[m[1].str()].push_back(l);
    }
    if (!a.lowered.lowered.defined()) return t;
    // The printer's line table gives each `for` line its node, and so the
    // loop variable object the schedule made: exact even when two stages both
    // have a loop called `k`. Only valid if it printed the very same text.
    AnnotatedText at = tir::printPrimFunc(a.lowered.lowered);
    if (at.text != a.build.tir) return t;
    t.identity = true;
    for (size_t i = 0; i < at.lineNode.size(); ++i)
        if (auto* f = dynamic_cast<const tir::ForNode*>(at.lineNode[i]))
            t.loopsOfVar[f->loopVar.get()].push_back(int(i) + 1);
    return t;
}

// ---------------------------------------------------------------------------
// TE script -> TIR (heuristic; the trace has no line table for it).
//
// TIR loop variables are the TE iteration variables themselves (split names
// them `x_outer`, `x_inner`, fuse `x_y_fused`, cache_write `x_c`; reduction
// init nests add `_init`), and TIR buffers are named after the stage's tensor.
// The script is run again to learn which object each of its names ends up
// holding (`xo` -> IterVar x_outer of stage C); then a script line links to:
//  - the loops of every iteration variable it names; a variable that was
//    split or fused links to the loops that replaced it; one that left no loop
//    (vectorized, unrolled, or split into such) links to the body of the
//    nearest enclosing loop of its stage that survived;
//  - the statements and every loop of a tensor it defines
//    (`C = te.compute(...)`, `CC = s.cache_write(C, ...)`);
//  - the statements of the stage it schedules (`s[C].compute_inline()`) when
//    it names no iteration variable.
// Names hold their final values, so a name the script rebinds links as its
// last binding: good enough for schedules, which rarely rebind.

struct ScriptToken {
    std::string text;
    bool ident = false;
};

std::vector<ScriptToken> tokenize(std::string_view line) {
    std::vector<ScriptToken> out;
    size_t i = 0;
    while (i < line.size()) {
        char c = line[i];
        if (c == '#') break;
        if (c == '"' || c == '\'') {
            // Skip the string (triple quotes and escapes are rare in schedules).
            size_t j = i + 1;
            while (j < line.size() && line[j] != c)
                j += line[j] == '\\' ? 2 : 1;
            i = j + 1;
            continue;
        }
        if (identChar(c)) {
            size_t j = i;
            while (j < line.size() && identChar(line[j]))
                ++j;
            bool number = std::isdigit(static_cast<unsigned char>(c));
            out.push_back({std::string(line.substr(i, j - i)), !number});
            i = j;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        static const std::string_view opChars = "=!<>+-*/%&|^~@";
        if (opChars.find(c) != std::string_view::npos) {
            size_t j = i;
            while (j < line.size() && opChars.find(line[j]) != std::string_view::npos)
                ++j;
            out.push_back({std::string(line.substr(i, j - i)), false});
            i = j;
            continue;
        }
        out.push_back({std::string(1, c), false});
        ++i;
    }
    return out;
}

bool pythonKeyword(const std::string& s) {
    static const std::unordered_set<std::string> kw = {
        "for", "in",  "if",   "else", "elif",  "lambda", "def", "return", "and",
        "or",  "not", "None", "True", "False", "while",  "is",  "pass",   "import"};
    return kw.count(s) != 0;
}

/// What one script line names.
struct LineNames {
    std::vector<tir::IterVar> iterVars;
    std::vector<std::string> definedStages;   ///< tensors it assigns
    std::vector<std::string> scheduledStages; ///< `s[X]` subscripts
};

LineNames namesOf(std::string_view line,
                  const std::unordered_map<std::string, const te::script::Value*>& globals) {
    using te::script::Value;
    LineNames out;
    std::vector<ScriptToken> toks = tokenize(line);
    // Lambda parameters shadow globals for the rest of the line.
    std::unordered_set<std::string> params;
    for (size_t i = 0; i < toks.size(); ++i) {
        if (toks[i].text != "lambda") continue;
        for (size_t j = i + 1; j < toks.size() && toks[j].text != ":"; ++j)
            if (toks[j].ident) params.insert(toks[j].text);
    }
    // The top-level `=` of an assignment, if any.
    size_t assign = toks.size();
    for (size_t i = 0, depth = 0; i < toks.size(); ++i) {
        const std::string& t = toks[i].text;
        if (t == "(" || t == "[" || t == "{") ++depth;
        if ((t == ")" || t == "]" || t == "}") && depth) --depth;
        if (t == "=" && depth == 0) {
            assign = i;
            break;
        }
    }
    auto lookup = [&](const std::string& name) -> const Value* {
        if (params.count(name)) return nullptr;
        auto it = globals.find(name);
        return it == globals.end() ? nullptr : it->second;
    };
    std::function<void(const Value&, int)> addIterVars = [&](const Value& v, int depth) {
        if (v.is(Value::Kind::IterVar))
            out.iterVars.push_back(v.asIterVar());
        else if (v.isSequence() && depth < 2)
            for (auto& item : v.items())
                addIterVars(item, depth + 1);
    };
    auto stageName = [](const Value& v) -> std::string {
        if (v.is(Value::Kind::Tensor)) return v.asTensor().name();
        if (v.is(Value::Kind::Operation)) return v.asOperation()->name;
        if (v.is(Value::Kind::Stage)) return v.asStage().op()->name;
        return {};
    };
    int depth = 0;
    for (size_t i = 0; i < toks.size(); ++i) {
        const ScriptToken& tok = toks[i];
        if (tok.text == "(" || tok.text == "[" || tok.text == "{") ++depth;
        if ((tok.text == ")" || tok.text == "]" || tok.text == "}") && depth) --depth;
        if (!tok.ident || pythonKeyword(tok.text)) continue;
        if (i > 0 && toks[i - 1].text == ".") continue; // an attribute
        if (depth > 0 && i + 1 < toks.size() && toks[i + 1].text == "=")
            continue; // a keyword argument
        const Value* v = lookup(tok.text);
        if (!v) continue;
        addIterVars(*v, 0);
        if (i < assign && assign < toks.size()) {
            if (std::string s = stageName(*v); !s.empty()) out.definedStages.push_back(s);
        }
        if (v->is(Value::Kind::Schedule) && i + 1 < toks.size() && toks[i + 1].text == "[") {
            int d = 0;
            for (size_t j = i + 1; j < toks.size(); ++j) {
                if (toks[j].text == "[") ++d;
                if (toks[j].text == "]" && --d == 0) break;
                if (const Value* inner = toks[j].ident ? lookup(toks[j].text) : nullptr)
                    if (std::string s = stageName(*inner); !s.empty())
                        out.scheduledStages.push_back(s);
            }
        }
    }
    return out;
}

class TeLinker {
public:
    TeLinker(const driver::FunctionArtifacts& a, const TirText& tir) : a_(a), tir_(tir) {
        for (auto& st : a.lowered.schedule.stages()) {
            stages_[st.op()->name] = st.ptr().get();
            stageOrder_.push_back(st.ptr().get());
        }
    }

    /// teToTir for every script line; throws CompileError when the script does not run.
    std::vector<std::vector<int>> link() {
        te::script::ScriptOptions so;
        so.fileName = a_.name + ".te";
        te::script::ScriptResult r = te::script::runScript(a_.script, so);
        std::unordered_map<std::string, const te::script::Value*> globals;
        for (auto& [name, value] : r.globals)
            globals[name] = &value;
        // Which stage each of the script's iteration variables belongs to.
        for (auto& sch : r.schedules)
            for (auto& st : sch.stages())
                for (auto& iv : st.data().allIterVars)
                    scriptStage_.emplace(iv.get(), st.op()->name);

        std::vector<std::string_view> lines = splitLines(a_.script);
        std::vector<std::vector<int>> out(lines.size());
        for (size_t i = 0; i < lines.size(); ++i) {
            LineNames names = namesOf(lines[i], globals);
            std::vector<int>& links = out[i];
            for (auto& iv : names.iterVars) {
                auto [stage, art] = resolve(iv);
                std::vector<int> ls;
                if (art.defined())
                    ls = linesOfIterVar(stage, art);
                else if (auto it = tir_.loopsByName.find(iv->var.name());
                         it != tir_.loopsByName.end())
                    ls = it->second;
                links.insert(links.end(), ls.begin(), ls.end());
            }
            for (auto& s : names.definedStages) {
                auto st = tir_.statementsOf(s);
                links.insert(links.end(), st.begin(), st.end());
                // The definition names the stage's axes (the lambda's
                // parameters): it links to every loop of the stage too.
                if (auto it = stages_.find(s); it != stages_.end())
                    for (auto& iv : it->second->allIterVars) {
                        auto own = ownLoops(it->second, iv);
                        links.insert(links.end(), own.begin(), own.end());
                    }
            }
            if (names.iterVars.empty() && names.definedStages.empty())
                for (auto& s : names.scheduledStages) {
                    auto st = tir_.statementsOf(s);
                    links.insert(links.end(), st.begin(), st.end());
                }
            sortUnique(links);
        }
        return out;
    }

private:
    /// The artifacts' own stage and iteration variable for one of the script's
    /// (same stage name, same variable name); a null stage when none matches.
    std::pair<const te::StageData*, tir::IterVar> resolve(const tir::IterVar& iv) const {
        const std::string& name = iv->var.name();
        auto find = [&](const te::StageData* st) -> tir::IterVar {
            for (auto& v : st->allIterVars)
                if (v->var.name() == name) return v;
            return {};
        };
        if (auto s = scriptStage_.find(iv.get()); s != scriptStage_.end())
            if (auto st = stages_.find(s->second); st != stages_.end())
                if (auto v = find(st->second); v.defined()) return {st->second, v};
        for (auto* st : stageOrder_)
            if (auto v = find(st); v.defined()) return {st, v};
        return {nullptr, {}};
    }

    /// The loops of `iv` itself (and, with `init`, of its reduction init copy).
    std::vector<int> ownLoops(const te::StageData* st, const tir::IterVar& iv,
                              bool init = true) const {
        std::vector<int> out;
        if (tir_.identity) {
            if (auto it = tir_.loopsOfVar.find(iv->var.get()); it != tir_.loopsOfVar.end())
                out = it->second;
        } else if (auto it = tir_.loopsByName.find(iv->var.name()); it != tir_.loopsByName.end()) {
            out = it->second;
        }
        // The init nest of a reduction gets fresh variables `<name>_init`; keep
        // those that initialise this stage's buffer.
        if (!init) return out;
        if (auto it = tir_.loopsByName.find(iv->var.name() + "_init"); it != tir_.loopsByName.end())
            for (int l : it->second)
                if (tir_.firstStoreIn(l) == st->op->name) out.push_back(l);
        return out;
    }

    /// The variables that replaced `iv` (split outer/inner, fuse result).
    std::vector<tir::IterVar> children(const te::StageData* st, const tir::IterVar& iv) const {
        std::vector<tir::IterVar> out;
        for (auto& r : st->relations) {
            if (r.kind == te::IterRelation::Kind::Split && r.parent.get() == iv.get()) {
                out.push_back(r.outer);
                out.push_back(r.inner);
            } else if (r.kind == te::IterRelation::Kind::Fuse &&
                       (r.outer.get() == iv.get() || r.inner.get() == iv.get())) {
                out.push_back(r.fused);
            }
        }
        return out;
    }

    std::vector<int> linesOfIterVar(const te::StageData* st, const tir::IterVar& iv) const {
        std::vector<int> out;
        std::unordered_set<const tir::IterVarNode*> seen;
        std::function<void(const tir::IterVar&)> collect = [&](const tir::IterVar& v) {
            if (!seen.insert(v.get()).second) return;
            std::vector<int> own = ownLoops(st, v);
            if (!own.empty()) {
                out.insert(out.end(), own.begin(), own.end());
                return;
            }
            for (auto& c : children(st, v))
                collect(c);
        };
        collect(iv);
        if (!out.empty()) return out;
        // No loop left: the body of the nearest enclosing loop that survived.
        const auto& leaves = st->leafIterVars;
        size_t pos = leaves.size();
        for (size_t i = 0; i < leaves.size() && pos == leaves.size(); ++i)
            if (seen.count(leaves[i].get())) pos = i;
        for (size_t q = pos; q-- > 0 && pos < leaves.size();) {
            // The main nest only: the init nest's body is not where the variable went.
            std::vector<int> own = ownLoops(st, leaves[q], false);
            if (own.empty()) continue;
            for (int head : own) {
                auto body = tir_.bodyOf(head);
                out.insert(out.end(), body.begin(), body.end());
            }
            return out;
        }
        return tir_.statementsOf(st->op->name);
    }

    const driver::FunctionArtifacts& a_;
    const TirText& tir_;
    std::unordered_map<std::string, const te::StageData*> stages_;
    std::vector<const te::StageData*> stageOrder_;
    std::unordered_map<const tir::IterVarNode*, std::string> scriptStage_;
};

} // namespace

LineLinks LineLinks::build(const driver::FunctionArtifacts& a) {
    LineLinks links;
    links.llvmIR_ = a.build.llvmIRLines;
    links.llvmIROptimized_ = a.build.llvmIROptimizedLines;
    links.assembly_ = a.build.assemblyLines;
    TirText tir = readTir(a);
    links.tirLines_ = tir.count();

    // The C backend's own line table (codegen/CodeGenC.h).
    links.cLines_ = a.cLines;
    links.cStatus_ = a.c.empty()             ? Status::NoText
                     : links.cLines_.empty() ? Status::NoMatch
                                             : Status::Linked;

    links.tirToTe_.assign(size_t(links.tirLines_) + 1, {});
    if (a.script.find_first_not_of(" \t\r\n") == std::string::npos) {
        links.teStatus_ = Status::NoText;
    } else if (!a.lowered.schedule.defined()) {
        links.teStatus_ = Status::NoSchedule;
    } else {
        try {
            links.teToTir_ = TeLinker(a, tir).link();
            bool any = std::any_of(links.teToTir_.begin(), links.teToTir_.end(),
                                   [](auto& v) { return !v.empty(); });
            links.teStatus_ = any ? Status::Linked : Status::NoMatch;
        } catch (const std::exception& e) {
            links.teToTir_.clear();
            links.teStatus_ = Status::ScriptFails;
            links.scriptError_ = e.what();
        }
    }
    for (size_t i = 0; i < links.teToTir_.size(); ++i)
        for (int t : links.teToTir_[i])
            if (t > 0 && t <= links.tirLines_) links.tirToTe_[size_t(t)].push_back(int(i) + 1);
    return links;
}

const codegen::LineMap* LineLinks::mapOf(Pane pane) const {
    switch (pane) {
    case LlvmIr:
        return llvmOptimized_ ? &llvmIROptimized_ : &llvmIR_;
    case Assembly:
        return &assembly_;
    case C:
        return &cLines_;
    default:
        return nullptr;
    }
}

std::vector<int> LineLinks::tirLinesOf(Pane pane, int line) const {
    if (line < 1) return {};
    switch (pane) {
    case Tir:
        return line <= tirLines_ ? std::vector<int>{line} : std::vector<int>{};
    case Te:
        return line <= int(teToTir_.size()) ? teToTir_[size_t(line - 1)] : std::vector<int>{};
    default: {
        int t = mapOf(pane)->tirLine(line);
        return t > 0 && t <= tirLines_ ? std::vector<int>{t} : std::vector<int>{};
    }
    }
}

std::vector<int> LineLinks::linesOf(Pane pane, int tirLine) const {
    if (tirLine < 1 || tirLine > tirLines_) return {};
    switch (pane) {
    case Tir:
        return {tirLine};
    case Te:
        return tirToTe_[size_t(tirLine)];
    default:
        return mapOf(pane)->linesOf(tirLine);
    }
}

LineLinks::Result LineLinks::linksOf(Pane pane, int line) const {
    Result r;
    r.tirLines = tirLinesOf(pane, line);
    sortUnique(r.tirLines);
    for (size_t g = 0; g < r.tirLines.size(); ++g)
        for (int p = 0; p < PaneCount; ++p)
            for (int l : linesOf(Pane(p), r.tirLines[g]))
                r.lines[size_t(p)].emplace(l, int(g));
    if (!r.empty()) r.lines[size_t(pane)].emplace(line, 0);
    return r;
}

} // namespace tessel::views
