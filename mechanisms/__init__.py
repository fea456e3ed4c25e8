"""Randomized algorithms with exact pmfs or sympy densities, validated parameters and declared neighbours."""

from mechanisms.additive_noise import Gaussian, Laplace, LaplaceWrongScale
from mechanisms.base import ContinuousMechanism, FiniteMechanism, Mechanism
from mechanisms.catalog import CATALOG, MechanismEntry, Parameter, make_mechanism
from mechanisms.exponential import ExponentialMechanism
from mechanisms.geometric import Geometric, GeometricRenormalized
from mechanisms.neighbours import Adjacency, AllPairs, Edges, Metric, NeighbourRelation, WithinDistance
from mechanisms.parameters import (
    ExactValue,
    InvalidParameterError,
    UndecidedSignError,
    exact_sign,
    require_int,
    require_positive,
    require_unit_interval,
    to_exact,
)
from mechanisms.randomized_response import KaryRandomizedResponse, RandomizedResponse
from mechanisms.unary_encoding import UnaryEncoding

__all__ = [
    "CATALOG",
    "Adjacency",
    "AllPairs",
    "ContinuousMechanism",
    "Edges",
    "ExactValue",
    "ExponentialMechanism",
    "FiniteMechanism",
    "Gaussian",
    "Geometric",
    "GeometricRenormalized",
    "InvalidParameterError",
    "KaryRandomizedResponse",
    "Laplace",
    "LaplaceWrongScale",
    "Mechanism",
    "MechanismEntry",
    "Metric",
    "NeighbourRelation",
    "Parameter",
    "RandomizedResponse",
    "UndecidedSignError",
    "UnaryEncoding",
    "WithinDistance",
    "exact_sign",
    "make_mechanism",
    "require_int",
    "require_positive",
    "require_unit_interval",
    "to_exact",
]
