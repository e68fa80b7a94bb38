"""Tools for people editing .sgs and .ruling text: the formatter, the editor grammars, the language server."""
