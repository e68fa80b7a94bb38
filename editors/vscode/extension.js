// The sgs-dsl extension: the language server (`sgs lsp`) over stdio for .sgs and .ruling files,
// and Format Document through `sgs fmt -`. Settings: sgs.command, sgs.server.*, sgs.format.enable.
"use strict";

const vscode = require("vscode");
const { execFile } = require("child_process");

let client;

function settings() {
  return vscode.workspace.getConfiguration("sgs");
}

function startServer(context) {
  if (!settings().get("server.enable", true)) {
    return;
  }
  // vscode-languageclient is the extension's one dependency (`npm install` in this folder);
  // without it the grammars and Format Document still work.
  let languageclient;
  try {
    languageclient = require("vscode-languageclient/node");
  } catch (error) {
    vscode.window.showWarningMessage("sgs-dsl: run `npm install` in the extension's folder to start `sgs lsp`.");
    return;
  }
  const { LanguageClient, TransportKind } = languageclient;
  const command = settings().get("command", "sgs");
  const args = settings().get("server.args", ["lsp"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "sgs" },
      { scheme: "file", language: "sgs-ruling" },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{sgs,ruling}") },
  };
  client = new LanguageClient("sgs", "sgs-dsl language server", serverOptions, clientOptions);
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

// `sgs fmt -` reads the text on stdin and prints it formatted; a file that does not parse is
// left as it is and the error is shown.
function formatter(language, suffix) {
  return vscode.languages.registerDocumentFormattingEditProvider(language, {
    provideDocumentFormattingEdits(document) {
      if (!settings().get("format.enable", true)) {
        return [];
      }
      const name = document.isUntitled ? `untitled${suffix}` : document.fileName;
      return new Promise((resolve) => {
        const child = execFile(
          settings().get("command", "sgs"),
          ["fmt", "-", "--stdin-filename", name],
          { maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) => {
            if (error) {
              vscode.window.showErrorMessage(`sgs fmt: ${(stderr || error.message).trim()}`);
              resolve([]);
              return;
            }
            const all = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
            resolve(stdout === document.getText() ? [] : [vscode.TextEdit.replace(all, stdout)]);
          }
        );
        child.stdin.end(document.getText());
      });
    },
  });
}

function activate(context) {
  context.subscriptions.push(formatter("sgs", ".sgs"), formatter("sgs-ruling", ".ruling"));
  startServer(context);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
