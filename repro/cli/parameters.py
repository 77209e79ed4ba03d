"""The parameters of a method as ``python -m repro list params METHOD`` prints them.

One row per parameter of the estimator (``get_params``): its default (the method's config file,
``conf/method/<id>.yaml``, else the estimator's own), its allowed values and the first line of
its meaning. The last two come from the ``Parameters`` section of the estimator's docstring (its
class or a base class), the numpydoc text the documentation site renders: one source for both.
A parameter absent from the config file is set with ``+method.NAME=VALUE``; it is not part of a
stored cell's configuration until it is given.
"""

from __future__ import annotations

import inspect
import re

#: the Parameters section of a numpydoc docstring, up to the next section or the end
_SECTION = re.compile(r"^Parameters\n-+\n(.*?)(?=\n\n[A-Z][A-Za-z ]+\n-+\n|\Z)", re.S | re.M)


def documented_parameters(cls) -> dict[str, tuple[str, str]]:
    """Name → (allowed values, first line of meaning) from the ``Parameters`` sections of
    ``cls`` and its bases (the first that documents a name wins); ``a, b : spec`` documents
    both."""
    out: dict[str, tuple[str, str]] = {}
    for klass in cls.__mro__:
        found = _SECTION.search(inspect.getdoc(klass) or "")
        if not found:
            continue
        names: list[str] = []
        for line in found.group(1).splitlines():
            if line and not line.startswith(" "):
                head, _, spec = line.partition(" : ")
                names = [n.strip() for n in head.rstrip(" :").split(",") if n.strip()]
                for name in names:
                    out.setdefault(name, (spec.strip(), ""))
            elif names and line.strip():
                for name in names:
                    spec, meaning = out[name]
                    if not meaning:
                        out[name] = (spec, line.strip())
                names = [n for n in names if not out[n][1]]
    return out


def params_table(method: str) -> str:
    """The table of ``python -m repro list params METHOD`` (module docstring); a ValueError
    naming the valid methods for an unknown one."""
    from repro.registry import make_method, method_config, method_params, resolve_method_id

    method_id = resolve_method_id(method)
    estimator = make_method(method_id)
    configured = method_params(method_config(method_id))
    documented = documented_parameters(type(estimator))
    rows = []
    for name, default in estimator.get_params(deep=False).items():
        spec, meaning = documented.get(name, ("", "(not documented)"))
        text = " — ".join(part for part in (spec, meaning) if part)
        if name not in configured:
            text += f" [not in its config: +method.{name}=VALUE]"
        rows.append((name, repr(configured.get(name, default)), text))
    width = max(len(r[0]) for r in rows)
    wide = max(len(r[1]) for r in rows)
    head = f"{method_id}: python -m repro method={method_id} method.NAME=VALUE"
    lines = [f"{name:<{width}}  {value:<{wide}}  {text}" for name, value, text in rows]
    return "\n".join([head, *lines])
