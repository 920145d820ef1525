/// \file
/// Syntax colouring for the IDE's texts: TE scripts (Python-like), TIR, LLVM
/// IR, assembly, C, graph IR and unified diffs. Rules are regular expressions
/// per language, as Compiler Explorer's do: fast enough to colour tens of
/// thousands of lines of assembly while scrolling.
#pragma once

#include "common/CodeEditor.h"

class QSyntaxHighlighter;
class QTextDocument;

namespace tessel::views {

/// A highlighter for `language` attached to `document` (null for Plain).
QSyntaxHighlighter* makeHighlighter(Language language, QTextDocument* document);

} // namespace tessel::views
