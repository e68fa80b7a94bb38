"""Tools for designers who write .sgs and .ruling text: the language server (`sgs lsp`), the formatter (`sgs fmt`), the editor grammars, and skill text read back from the rules (`sgs text`)."""
