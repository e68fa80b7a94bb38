"""`mypyc_attr` for the classes of the compiled build that Python code may subclass, without
making `mypy_extensions` a dependency of the plain install.

mypyc reads `@mypyc_attr(allow_interpreted_subclasses=True)` off the source at compile time (it
knows the decorator by its full name, `mypy_extensions.mypyc_attr`, which the import below gives
to mypy) and never runs it; in the pure build the decorator runs, and does nothing, whether
`mypy_extensions` is installed (it comes with mypy) or not. This module stays pure Python:
hatch_build.py does not compile it (docs/performance.md, "The compiled build")."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the plain install: nothing compiled reads it

        def mypyc_attr(*attrs, **options):
            return lambda cls: cls
