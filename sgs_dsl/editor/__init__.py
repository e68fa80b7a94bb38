"""Tools for the designer's editor: the language server (`sgs lsp`) and what it reads."""
