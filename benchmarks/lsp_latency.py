"""How long `sgs lsp` takes to answer an edit with diagnostics, over stdio, on the largest
built-in .sgs file: the time from the didChange notification to the publishDiagnostics it
causes, after warm-up (the first open loads the library and fills the parse caches).

    python benchmarks/lsp_latency.py [--rounds 20]

Each round changes one comment (a new text: the file is parsed again and the whole
library checked, as on a keystroke). Prints the median and the slowest round, in ms."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from sgs_dsl.resources import library_files


async def main(rounds: int) -> None:
    path = max(library_files(), key=lambda f: f.stat().st_size)
    text = path.read_text(encoding="utf-8")
    uri = from_fs_path(str(path.resolve()))
    client = LanguageClient("lsp-latency", "1")
    arrived: asyncio.Queue[float] = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        if params.uri == uri:
            arrived.put_nowait(time.perf_counter())

    await client.start_io(sys.executable, "-m", "sgs_dsl.cli", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                       root_uri=from_fs_path(str(Path.cwd()))))
    client.initialized(lsp.InitializedParams())
    began = time.perf_counter()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="sgs", version=0, text=text)))
    first = await arrived.get() - began
    times = []
    for i in range(1, rounds + 1):
        began = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=i),
            [lsp.TextDocumentContentChangeWholeDocument(text=f"# edit {i}\n" + text)]))
        times.append(await arrived.get() - began)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    warm = times[2:] or times
    print(f"{path.name} ({len(text.splitlines())} lines): open {first * 1000:.0f} ms; after warm-up, "
          f"median {statistics.median(warm) * 1000:.0f} ms, slowest {max(warm) * 1000:.0f} ms "
          f"over {len(warm)} edits")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    asyncio.run(main(parser.parse_args().rounds))
