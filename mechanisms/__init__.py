"""Randomized algorithms with exact pmfs or sympy densities, validated parameters and declared neighbours."""

from dpcert.mechanisms.additive_noise import Gaussian, Laplace, LaplaceWrongScale
from dpcert.mechanisms.base import ContinuousMechanism, FiniteMechanism, Mechanism
from dpcert.mechanisms.catalog import CATALOG, MechanismEntry, Parameter, make_mechanism
from dpcert.mechanisms.exponential import ExponentialMechanism
from dpcert.mechanisms.geometric import Geometric, GeometricRenormalized
from dpcert.mechanisms.neighbours import Adjacency, AllPairs, Edges, Metric, NeighbourRelation, WithinDistance
from dpcert.mechanisms.parameters import (
    ExactValue,
    InvalidParameterError,
    UndecidedSignError,
    exact_sign,
    require_int,
    require_positive,
    require_unit_interval,
    to_exact,
)
from dpcert.mechanisms.randomized_response import KaryRandomizedResponse, LeakyRandomizedResponse, RandomizedResponse
from dpcert.mechanisms.unary_encoding import UnaryEncoding

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
    "LeakyRandomizedResponse",
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
