"""The one registry of bound families (dpcert.accountant.catalog): every row against its function.

The command line evaluates a family as ``family.evaluate({name: value})``; a row whose parameter specs
drifted from its function's signature would reject a valid ``--param`` or pass a wrong default.
"""

from __future__ import annotations

import inspect

import pytest

from dpcert.accountant.bound_family import REQUIRED, ParameterSpec
from dpcert.accountant.catalog import BOUND_FAMILIES, CALIBRATIONS


@pytest.mark.parametrize("family", [*BOUND_FAMILIES.values(), *CALIBRATIONS.values()], ids=lambda f: f"{f.command}-{f.name}")
def test_every_registered_family_matches_its_function(family):
    """The registry's parameter specs are the function's parameters, in order, with the same defaults."""
    parameters = inspect.signature(family.function).parameters
    assert [s.name for s in family.parameters] == list(parameters)
    for spec in family.parameters:
        assert isinstance(spec, ParameterSpec) and spec.help
        default = parameters[spec.name].default
        assert spec.required == (default is inspect.Parameter.empty)
        if not spec.required:
            assert spec.default == default
    assert repr(REQUIRED) == "REQUIRED"


def test_evaluate_names_unknown_and_missing_parameters():
    family = BOUND_FAMILIES["composition"]
    with pytest.raises(ValueError, match="no parameter 'epsilon'"):
        family.evaluate({"epsilon": "1"})
    with pytest.raises(ValueError, match="needs --param k=VALUE"):
        family.evaluate({"eps": "1", "delta": "0"})
