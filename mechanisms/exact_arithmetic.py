"""Exact arithmetic on closed-form reals: certified signs and cancellation of exponentials.

Privacy probabilities are rational functions of e^eps (and of e^(eps/2), e^(-eps |y - x|), ...).
When every exponent is a rational multiple of one number b, all of them are rational functions of the
single number s = exp(b/q), and exact arithmetic in the field Q(s) is fast and decides equality:
exp(b/q) is transcendental (Lindemann), so a rational function of it vanishes only if it is the zero
function.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import sympy
from mpmath.ctx_iv import MPIntervalContext

__all__ = ["UndecidedSignError", "ExponentialField", "cancel_exponentials", "certified_float", "certified_value",
           "exact_max", "exact_sign"]


class UndecidedSignError(ArithmeticError):
    """The sign of a closed-form number could not be decided at the precision dpcert tries."""


_MAX_DEGREE = 4096
"""The largest power of s that :meth:`ExponentialField.covering` accepts: exponents such as 1 and
1000002/1000003 have a common s = exp(1/1000003) but need polynomials of degree 10^6 (hours of sympy)."""


@dataclass(frozen=True, eq=False)
class ExponentialField:
    """Q(s) with s = exp(b/q), holding every value it was built for as a rational function of s.

    A non-zero polynomial in s does not vanish at s = exp(b/q) when exp(b/q) is transcendental
    (Lindemann-Weierstrass for algebraic b/q != 0; sympy writes exp(r log a) as a^r, so exponents that
    remain are not logarithms of algebraic numbers), so signs in the field are decided by evaluating
    a numerator polynomial at s with interval arithmetic until the interval excludes 0.
    """

    generator: sympy.Dummy
    value: sympy.Expr
    substitution: dict[sympy.Expr, sympy.Expr]
    field: object
    exponent: sympy.Expr = sympy.Integer(1)
    """b/q, with s = exp(b/q)."""
    _memo: dict[sympy.Expr, object] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def covering(cls, exprs: Iterable[sympy.Expr]) -> ExponentialField | None:
        """The field for ``exprs``, or None when their exponents are not rational multiples of one number
        (or need powers of s beyond :data:`_MAX_DEGREE`)."""
        powers: dict[sympy.Expr, sympy.Expr] = {}
        for expr in exprs:
            powers.update((a, a.args[0]) for a in expr.atoms(sympy.exp))
            if expr.has(sympy.E):
                powers[sympy.E] = sympy.Integer(1)
        base = next((arg for arg in powers.values() if not arg.is_Rational), sympy.Integer(1))
        # exact ratios only: nsimplify would approximate (it reads 10^-32 as 0 and e * 10^-40 as 0)
        ratios = {atom: _exact_ratio(arg, base) for atom, arg in powers.items()}
        if not all(r is not None for r in ratios.values()):
            return None
        denominator = 1
        for r in ratios.values():
            denominator = sympy.ilcm(denominator, r.q)
        if any(abs(r * denominator) > _MAX_DEGREE for r in ratios.values()):
            return None
        s = sympy.Dummy("s", positive=True)
        return cls(s, sympy.exp(base / denominator), {a: s ** (r * denominator) for a, r in ratios.items()},
                   sympy.QQ.frac_field(s), base / denominator)

    def element(self, expr: sympy.Expr) -> object:
        """``expr`` as an element of Q(s).

        Sums, products and integer powers are converted part by part and remembered, so a normaliser
        shared by many probabilities (sum_y exp(-eps |y - x|) of a renormalised mechanism) is converted
        once, and a sum is added over one common denominator (:meth:`total`), not with a gcd per term.

        Raises:
            ValueError: ``expr`` has a coefficient outside Q (e.g. log(3)) or is not a rational function of s.
        """
        found = self._memo.get(expr)
        if found is not None:
            return found
        if isinstance(expr, sympy.Add):
            numerator, denominator = self.total((1, self.parts(self.element(a))) for a in expr.args)
            found = self.field.field.new(numerator, denominator)
        elif isinstance(expr, sympy.Mul):
            found = self.field.one
            for a in expr.args:
                found *= self.element(a)
        elif isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
            found = self.element(expr.base) ** int(expr.exp)
        else:
            try:
                found = self.field.from_sympy(expr.xreplace(self.substitution))
            except sympy.polys.polyerrors.CoercionFailed as error:
                raise ValueError(str(error)) from error
        self._memo[expr] = found
        return found

    def to_sympy(self, element: object) -> sympy.Expr:
        """The closed form of a field element, with s written as exp(b/q) again."""
        return self.field.to_sympy(element).subs(self.generator, self.value)

    def parts(self, element: object) -> tuple[object, int, object]:
        """(N, m, R) with element = N / (s^m R), R monic and R(0) != 0: the form :meth:`total` sums."""
        ring = self.field.field.ring
        denom = element.denom
        shift = min(m[0] for m in denom.monoms())
        rest = denom if shift == 0 else ring.from_dict({(m[0] - shift,): v for m, v in denom.terms()})
        lc = rest.LC
        if lc == ring.domain.one:
            return element.numer, shift, rest
        return element.numer.quo_ground(lc), shift, rest.quo_ground(lc)

    def total(self, terms: Iterable[tuple[object, tuple[object, int, object]]]) -> tuple[object, object]:
        """sum of c * N / (s^m R) over (rational c, :meth:`parts` of an element), as (numerator, denominator).

        Terms are grouped by R (a pmf's denominators mostly differ by powers of s: the geometric
        mechanism's are (s + 1) s^d), so the sum takes one lcm of the distinct R and shifts by powers of
        s instead of a gcd per addition. The fraction is not reduced: it equals 1 iff numerator ==
        denominator, and 0 iff the numerator is the zero polynomial.
        """
        ring = self.field.field.ring
        domain = ring.domain
        groups: dict[tuple, tuple[object, list[tuple[object, object, int]]]] = {}
        for c, (numer, shift, rest) in terms:
            if c:
                coefficient = domain(c) if isinstance(c, int) else domain.convert(sympy.Rational(c))
                groups.setdefault(tuple(rest.terms()), (rest, []))[1].append((coefficient, numer, shift))
        if not groups:
            return ring.zero, ring.one
        top = max(shift for _, parts in groups.values() for _, _, shift in parts)
        common = ring.one
        for rest, _ in groups.values():
            common = common.lcm(rest)
        numerator = ring.zero
        for rest, parts in groups.values():
            sums: dict[int, object] = {}  # power of s -> coefficient: one pass, no intermediate polynomials
            for coefficient, numer, shift in parts:
                offset = top - shift
                for (power,), value in numer.items():
                    key = power + offset
                    sums[key] = sums.get(key, domain.zero) + coefficient * value
            partial = ring.from_dict({(power,): value for power, value in sums.items() if value})
            numerator += partial * common.exquo(rest) if rest != common else partial
        return numerator, common.mul_monom((top,)) if top else common

    def sign(self, numerator: object, denominator: object) -> int:
        """The exact sign of numerator(s) / denominator(s) at s = exp(b/q)."""
        return self.polynomial_sign(numerator) * self.polynomial_sign(denominator)

    def polynomial_sign(self, polynomial: object) -> int:
        """The exact sign of a polynomial with rational coefficients at s = exp(b/q).

        0 only for the zero polynomial (s is transcendental). Otherwise Horner's rule in mpmath interval
        arithmetic at 30, 120, 500 and 2000 digits, until the enclosure excludes 0.

        Raises:
            UndecidedSignError: the enclosure still contains 0 at 2000 digits.
        """
        if not polynomial:
            return 0
        terms = sorted(((m[0], c) for m, c in polynomial.terms()), reverse=True)
        for digits in (30, 120, 500, 2000):
            ctx = MPIntervalContext()
            ctx.dps = digits + 10
            s = self._enclosure(ctx, digits + 10)
            if s is None:
                continue
            value = ctx.mpf(0)
            degree = terms[0][0]
            for power, c in terms:
                value = value * s ** (degree - power) + ctx.mpf(int(c.numerator)) / int(c.denominator)
                degree = power
            value *= s ** degree
            if value.a > 0:
                return 1
            if value.b < 0:
                return -1
        raise UndecidedSignError(f"could not decide the sign of a polynomial of degree {terms[0][0]} "
                                 f"at s = {self.value}")

    def _enclosure(self, ctx: MPIntervalContext, digits: int):
        """An interval holding s = exp(b/q), from the exact rational b/q or a certified evaluation of it."""
        b = self.exponent
        if b.is_Rational:
            return ctx.exp(ctx.mpf(int(b.p)) / int(b.q))
        approx = _strict_evalf(b, digits, 4 * digits)
        if approx is None:
            return None
        centre = ctx.mpf(str(approx))
        radius = abs(centre) * ctx.mpf(10) ** (2 - digits)
        return ctx.exp(centre + ctx.mpf([-1, 1]) * radius)


def _exact_ratio(arg: sympy.Expr, base: sympy.Expr) -> sympy.Rational | None:
    """arg / base when it is provably a rational number, else None (never a rational approximation)."""
    ratio = arg / base
    if not ratio.is_Rational:
        ratio = sympy.expand_log(sympy.cancel(ratio), force=True)
    return ratio if ratio.is_Rational else None


def cancel_exponentials(expr: sympy.Expr) -> sympy.Expr:
    """Cancel a rational function of exponentials whose exponents are rational multiples of one number.

    exp(p/q) is rewritten as s**p with s = exp(1/q) (or exp(b/q) for a common irrational b), the
    rational function in s is cancelled, and s is substituted back; logarithms are cancelled inside.
    Example: (exp(3/2) + exp(2) + exp(5/2)) / (exp(1/2) + E + exp(3/2)) becomes E. Where no such s
    exists (or its powers would be too large), every exponential is cancelled as an independent symbol:
    an identity of rational functions in independent symbols holds at every value of them.
    """
    expr = sympy.sympify(expr).replace(lambda e: isinstance(e, sympy.log),
                                       lambda e: sympy.log(cancel_exponentials(e.args[0])))
    field = ExponentialField.covering([expr])
    if field is None:
        return _cancel_independently(expr)
    try:
        return field.to_sympy(field.element(expr))
    except ValueError:  # coefficients outside Q: cancel with sympy's general rational-function code
        return sympy.cancel(expr.xreplace(field.substitution)).subs(field.generator, field.value)


def _cancel_independently(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` cancelled as a rational function of its exponentials taken as independent symbols."""
    atoms = sorted(expr.atoms(sympy.exp), key=sympy.default_sort_key) + ([sympy.E] if expr.has(sympy.E) else [])
    symbols = {a: sympy.Dummy(positive=True) for a in atoms}
    cancelled = sympy.cancel(expr.xreplace(symbols))
    return cancelled.xreplace({v: a for a, v in symbols.items()})


_WORKING_DIGITS = (120, 1200, 5000)
"""Working precisions (decimal digits) that :func:`certified_float` lets sympy use against cancellation."""


def _strict_evalf(expr: sympy.Expr, digits: int, working_digits: int) -> sympy.Expr | None:
    """``expr`` with ``digits`` correct significant digits, or None where sympy cannot guarantee them.

    sympy's ``evalf(strict=True)`` raises instead of returning digits that are not all correct (a plain
    ``evalf`` may return 0 or a wrong value after a cancellation: exp(10^-300) - 1 at 30 digits).
    A closed form that sympy cannot evaluate at all (an overflow inside its assumptions) gives None.
    """
    try:
        approx = expr.evalf(digits, strict=True, maxn=working_digits)
    except (sympy.core.evalf.PrecisionExhausted, OverflowError, ValueError):
        return None
    return approx if approx.is_Number else None


def certified_value(expr: sympy.Expr) -> sympy.Float:
    """``expr`` to 20 certified significant digits (sympy's strict evaluation, up to 5000 working digits).

    Raises:
        UndecidedSignError: no certified evaluation within 5000 working digits (the number is 0 in a
            form sympy does not reduce, or needs more digits to separate from 0).
    """
    for working_digits in _WORKING_DIGITS:
        approx = _strict_evalf(expr, 20, working_digits)
        if approx is not None:
            return approx
    raise UndecidedSignError(f"could not evaluate {_short(expr)} to 20 certified digits")


def certified_float(expr: sympy.Expr) -> float:
    """A closed-form real number rounded to float64 from a certified 20-digit evaluation.

    The result is within 2 ulps of ``expr`` (the 20 correct digits are rounded once more to a float);
    it is ``inf``/``-inf`` beyond the float range and 0.0 below it. Floats that filter exact
    decisions (the checkers' shadows) come from here, never from a plain ``evalf``.

    Raises:
        UndecidedSignError: see :func:`certified_value`.
    """
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return _rational_float(expr)
    approx = certified_value(expr)
    return _rational_float(approx) if approx.is_Rational else float(approx)


def _rational_float(value: sympy.Rational) -> float:
    try:
        return value.p / value.q  # correctly rounded by Python's int / int
    except OverflowError:  # beyond the float range
        return math.inf if value.p > 0 else -math.inf


def _short(expr: sympy.Expr) -> str:
    text = str(expr)
    return text if len(text) <= 200 else text[:200] + "..."


def exact_sign(expr: sympy.Expr) -> int:
    """The exact sign (-1, 0 or 1) of a closed-form real number.

    Rationals are compared exactly. Other numbers are evaluated with sympy's ``evalf(strict=True)``,
    which raises instead of returning a value whose requested digits are not all correct, so a
    non-zero result has the right sign; a number that evaluates to zero is decided by cancellation in
    Q(exp(b/q)) or by simplification.

    Raises:
        UndecidedSignError: neither the evaluation nor the simplification could decide.
    """
    if expr.is_Rational:
        return (expr.p > 0) - (expr.p < 0)
    try:
        if expr.is_zero:
            return 0
    except OverflowError:  # sympy's assumptions evaluate some closed forms (erfc of 10^308) in floats
        pass
    for digits in (30, 120, 500):
        approx = _strict_evalf(expr, digits, 4 * digits)
        if approx is not None and approx != 0:
            return 1 if approx > 0 else -1
        if digits == 30 and cancel_exponentials(expr) == 0:  # an exact tie: cheaper than more digits
            return 0
    if sympy.simplify(expr) == 0 or expr.equals(0):
        return 0
    raise UndecidedSignError(f"could not decide the sign of {_short(expr)}")


def exact_max(values: Iterable[sympy.Expr]) -> sympy.Expr:
    """The largest of some closed-form reals, exactly.

    A certified 20-digit evaluation keeps the values within 1e-9 (relative) of the largest, and every
    value it cannot evaluate; those are compared with :func:`exact_sign`. The filter cannot drop the
    maximum: a certified float is within 2 ulps (relative 4.4e-16) of its value.

    Raises:
        ValueError: ``values`` is empty.
        UndecidedSignError: two candidates could not be ordered.
    """
    values = [sympy.sympify(v) for v in values]
    if not values:
        raise ValueError("exact_max needs at least one value")
    approx = []
    for v in values:
        try:
            approx.append(certified_float(v))
        except UndecidedSignError:
            approx.append(math.nan)  # not filtered: compared exactly
    finite = [a for a in approx if not math.isnan(a)]
    top = max(finite, default=math.inf)
    threshold = top - 1e-9 * max(1.0, abs(top)) if math.isfinite(top) else -math.inf  # beyond floats: compare all
    best = None
    for value, guess in zip(values, approx):
        if (math.isnan(guess) or guess >= threshold) and (
                best is None or (value != best and exact_sign(value - best) > 0)):
            best = value
    return best
