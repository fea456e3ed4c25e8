"""The syntax of a mechanism SPEC, ``NAME:param=value,...*count``, shared by ``dpcert compose`` (its mechanisms:
:mod:`dpcert.accountant.pld_spec`) and the shuffle row's randomizers (:mod:`dpcert.accountant.blanket_variables`).

A value may be a bracketed list (``A=[[0, 1], [2, 0]]``) or an expression; the repeat count is the last single
``*`` outside brackets in the last parameter's value, so a product inside a value needs parentheses
(``eps=(log(3)*2)``).
"""

from __future__ import annotations

import re

from dpcert.mechanisms.parameters import InvalidParameterError, require_int

__all__ = ["MAX_COUNT", "parse_spec", "top_level_split"]

MAX_COUNT = 10**6
"""Repeat counts up to 10^6: repeated squaring needs up to 2 log2(count) convolutions (40 at 10^6); measured:
10^6 subsampled randomized responses take 12 s, 10^7 took over a minute."""


def top_level_split(text: str, *, separator: str = ",") -> list[str]:
    """``text`` split at the separators outside brackets (a value may be a list: A=[[0, 1], [2, 0]])."""
    parts, depth, current = [], 0, []
    for char in text:
        depth += (char in "([{") - (char in ")]}")
        if char == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


_PARAMETER = re.compile(r"[A-Za-z_]\w*\s*=")


def _count_star(text: str) -> int | None:
    """Where the repeat count's '*' is: the last single '*' (not part of a power '**', or the last character)
    outside brackets in the last parameter's value (or after the name); so a product inside a value needs
    parentheses: eps=(log(3)*2)."""
    starts = [match.end() for match in _PARAMETER.finditer(text)]
    begin = starts[-1] if starts else text.find(":") + 1
    depth, found = 0, None
    for position in range(begin, len(text)):
        char = text[position]
        depth += (char in "([{") - (char in ")]}")
        alone = "*" not in (text[position - 1], text[position + 1:position + 2]) or position == len(text) - 1
        if char == "*" and depth == 0 and alone:
            found = position
    return found


def parse_spec(text: str) -> tuple[str, dict[str, str], int]:
    """``NAME:param=value,...*count`` -> (name, raw parameters, count)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidParameterError(f"SPEC must be NAME:param=value,...[*count]. Got {text!r}")
    text = text.strip()
    count = 1
    star = _count_star(text)
    if star is not None:
        text, count = text[:star], require_int("count", text[star + 1:].strip(), minimum=1, maximum=MAX_COUNT)
    name, _, body = text.partition(":")
    name = name.strip()
    raw: dict[str, str] = {}
    previous = ""
    for item in (part.strip() for part in top_level_split(body) if body.strip()):
        key, equals, value = item.partition("=")
        if not equals or not key.strip() or not value.strip():
            after = f" (after {previous}=...)" if previous else ""
            raise InvalidParameterError(f"SPEC parameters must read param=value{after}. Got {item!r} in {text!r}")
        previous = key.strip()
        if key.strip() in raw:
            raise InvalidParameterError(f"SPEC names parameter {key.strip()!r} twice: {text!r}")
        raw[key.strip()] = value.strip()
    return name, raw, count
