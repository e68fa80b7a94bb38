"""A scripted agent for tests: answers come from a queue, matched by option label.

Strict: a question with no scripted answer, or an answer that is not among the legal
options, raises ScriptError naming the question and its candidates."""

from __future__ import annotations

from collections import deque
from typing import Any

from ..engine.decisions import Request


class ScriptError(AssertionError):
    pass


class ScriptedAgent:
    def __init__(self, answers: list[str] | None = None, default: str | None = None):
        self.answers: deque[str] = deque(answers or [])
        self.default = default  # e.g. "不使用": answer this whenever it is an option and no script is left
        self.asked: list[Request] = []

    def choose(self, request: Request, view: Any) -> int:
        self.asked.append(request)
        labels = request.labels()
        if not self.answers:
            if self.default is not None:
                for i, label in enumerate(labels):
                    if label == self.default or label.startswith(self.default):
                        return i
            raise ScriptError(f"unanswered question to seat {request.seat + 1}: {request.prompt} "
                              f"(candidates: {', '.join(labels)})")
        want = self.answers.popleft()
        for i, label in enumerate(labels):
            if label == want:
                return i
        for i, label in enumerate(labels):
            if want in label:
                return i
        raise ScriptError(f"scripted answer '{want}' is not a legal option for seat {request.seat + 1}: "
                          f"{request.prompt} (candidates: {', '.join(labels)})")

    def unused(self) -> list[str]:
        return list(self.answers)
