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
from mpmath.libmp import dps_to_prec

from dpcert.mechanisms.interval_sign import interval_sign
from dpcert.mechanisms.mp_contexts import interval_context

__all__ = ["UndecidedSignError", "ExponentialField", "cancel_exponentials", "certified_float", "certified_value",
           "exact_max", "exact_sign", "proved_bracket"]


class UndecidedSignError(ArithmeticError):
    """The sign of a closed-form number could not be decided at the precision dpcert tries."""


_MAX_DEGREE = 100_000
"""The largest power of s that :meth:`ExponentialField.covering` accepts: exponents such as 1 and
1000002/1000003 have a common s = exp(1/1000003) but need polynomials of degree 10^6 (hours of sympy;
sparse polynomials of degree 10^5 take seconds)."""


@dataclass(frozen=True, eq=False)
class ExponentialField:
    """Q(s_1, ..., s_n) with s_i = exp(b_i), holding values as rational functions of the s_i.

    :meth:`covering` builds one generator s = exp(b/q) of which every exponential is a power (then a
    non-zero polynomial does not vanish at s: exp(b/q) is transcendental by Lindemann-Weierstrass for
    algebraic b/q != 0, and sympy writes exp(r log a) as a^r, so the exponents that remain are not
    logarithms of algebraic numbers). :meth:`independent` gives every exponential its own generator: an
    identity of rational functions in independent symbols holds at every value of them, so a zero
    polynomial still proves a zero; a non-zero one is then only evaluated, and a value that is 0 through
    relations between the exponentials stays undecided. Signs are read by evaluating numerator
    polynomials with interval arithmetic until the interval excludes 0.
    """

    generators: tuple[sympy.Dummy, ...]
    exponents: tuple[sympy.Expr, ...]
    """b_i, with s_i = exp(b_i)."""
    substitution: dict[sympy.Expr, sympy.Expr]
    field: object
    _memo: dict[sympy.Expr, object] = field(default_factory=dict, compare=False, repr=False)
    _fractions: dict[sympy.Expr, tuple[object, object]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def covering(cls, exprs: Iterable[sympy.Expr], *, max_degree: int | None = _MAX_DEGREE) -> ExponentialField | None:
        """The one-generator field for ``exprs``, or None when their exponents are not rational multiples
        of one number (or need powers of s beyond ``max_degree``: fine for :meth:`fraction`, which never
        takes a gcd, but not for :meth:`element`, whose reduced fractions take gcds of that degree)."""
        powers = _exponentials(exprs)
        base = next((arg for arg in powers.values() if not arg.is_Rational), sympy.Integer(1))
        # exact ratios only: nsimplify would approximate (it reads 10^-32 as 0 and e * 10^-40 as 0)
        ratios = {atom: _exact_ratio(arg, base) for atom, arg in powers.items()}
        if not all(r is not None for r in ratios.values()):
            return None
        denominator = 1
        for r in ratios.values():
            denominator = sympy.ilcm(denominator, r.q)
        if max_degree is not None and any(abs(r * denominator) > max_degree for r in ratios.values()):
            return None
        s = sympy.Dummy("s", positive=True)
        return cls((s,), (base / denominator,), {a: s ** (r * denominator) for a, r in ratios.items()},
                   sympy.QQ.frac_field(s))

    @classmethod
    def independent(cls, exprs: Iterable[sympy.Expr]) -> ExponentialField:
        """The field with one generator per distinct exponential of ``exprs`` (see the class docstring)."""
        powers = _exponentials(exprs)
        generators = tuple(sympy.Dummy(f"s{i}", positive=True) for i in range(len(powers))) or (sympy.Dummy("s"),)
        exponents = tuple(powers.values()) or (sympy.Integer(1),)
        return cls(generators, exponents, dict(zip(powers, generators)), sympy.QQ.frac_field(*generators))

    @property
    def generator(self) -> sympy.Dummy:
        """s of a one-generator field."""
        return self.generators[0]

    @property
    def value(self) -> sympy.Expr:
        """exp(b/q) of a one-generator field."""
        return sympy.exp(self.exponents[0])

    def element(self, expr: sympy.Expr) -> object:
        """``expr`` as an element of the field.

        Sums, products and integer powers are converted part by part and remembered, so a normaliser
        shared by many probabilities (sum_y exp(-eps |y - x|) of a renormalised mechanism) is converted
        once, and a sum is added over one common denominator (:meth:`total`), not with a gcd per term.

        Raises:
            ValueError: ``expr`` has a coefficient outside Q (e.g. log(3)) or is not a rational function
                of the generators.
        """
        found = self._memo.get(expr)
        if found is not None:
            return found
        if isinstance(expr, sympy.Add):
            parts = (self.parts((e.numer, e.denom)) for e in map(self.element, expr.args))
            found = self.field.field.new(*self.total((1, part) for part in parts))
        elif isinstance(expr, sympy.Mul):
            found = self.field.one
            for a in expr.args:
                found *= self.element(a)
        elif isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
            found = self.element(expr.base) ** int(expr.exp)
        elif expr.has(sympy.log):  # never in Q(s); rebuilt around a polynomial, log would factor it
            raise ValueError(f"{_short(expr)} is not a rational function of the exponentials")
        else:
            try:
                found = self.field.from_sympy(expr.xreplace(self.substitution))
            except sympy.polys.polyerrors.CoercionFailed as error:
                raise ValueError(str(error)) from error
        self._memo[expr] = found
        return found

    def to_sympy(self, element: object) -> sympy.Expr:
        """The closed form of a field element, with each s_i written as exp(b_i) again."""
        return self.field.to_sympy(element).subs({g: sympy.exp(b) for g, b in zip(self.generators, self.exponents)})

    def fraction(self, expr: sympy.Expr) -> tuple[object, object]:
        """``expr`` as a pair (numerator, denominator) of polynomials in the generators, not reduced.

        No gcd is ever taken, so powers of s of any degree are cheap (polynomials are sparse: exponents
        1 and 1000002/1000003 give s^1000003 and s^1000002, two terms). Sums, products and integer
        powers are converted part by part and remembered.

        Raises:
            ValueError: ``expr`` has a coefficient outside Q (e.g. log(3)) or is not a rational function
                of the generators.
        """
        found = self._fractions.get(expr)
        if found is not None:
            return found
        ring = self.field.field.ring
        if isinstance(expr, sympy.Add):
            found = self.total((1, self.parts(self.fraction(a))) for a in expr.args)
        elif isinstance(expr, sympy.Mul):
            numerator, denominator = ring.one, ring.one
            for a in expr.args:
                n, d = self.fraction(a)
                numerator, denominator = numerator * n, denominator * d
            found = (numerator, denominator)
        elif isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
            n, d = self.fraction(expr.base)
            power = int(expr.exp)
            found = (n**power, d**power) if power >= 0 else (d ** -power, n ** -power)
            if not found[1]:
                raise ValueError(f"division by zero in {expr}")
        elif expr.is_Rational:
            found = (ring.ground_new(ring.domain.convert(expr)), ring.one)
        elif expr in self.substitution:
            monomial = self.substitution[expr]
            base, power = monomial.as_base_exp()
            generator = ring.gens[self.generators.index(base)]
            found = (generator ** int(power), ring.one) if power >= 0 else (ring.one, generator ** int(-power))
        else:
            raise ValueError(f"{expr} is not a rational function of exponentials with rational coefficients")
        self._fractions[expr] = found
        return found

    def parts(self, fraction: tuple[object, object]) -> tuple[object, tuple[int, ...], object]:
        """(N, m, R) with N / D = N / (s^m R), s^m a monomial, R monic without a monomial factor.

        The form :meth:`total` sums.
        """
        ring = self.field.field.ring
        numer, denom = fraction
        shift = tuple(min(exponents) for exponents in zip(*denom.monoms()))
        rest = denom if not any(shift) else ring.from_dict(
            {tuple(e - m for e, m in zip(monom, shift)): v for monom, v in denom.terms()})
        lc = rest.LC
        if lc == ring.domain.one:
            return numer, shift, rest
        return numer.quo_ground(lc), shift, rest.quo_ground(lc)

    def total(self, terms: Iterable[tuple[object, tuple[object, tuple[int, ...], object]]]) -> tuple[object, object]:
        """sum of c * N / (s^m R) over (rational c, :meth:`parts` of an element), as (numerator, denominator).

        Terms are grouped by R (a pmf's denominators mostly differ by monomials: the geometric
        mechanism's are (s + 1) s^d), so the sum multiplies the distinct R once and shifts by monomials;
        no gcd is taken. The fraction is not reduced: it equals 1 iff numerator == denominator, and 0 iff
        the numerator is the zero polynomial.
        """
        ring = self.field.field.ring
        domain = ring.domain
        groups: dict[tuple, tuple[object, list[tuple[object, object, tuple[int, ...]]]]] = {}
        for c, (numer, shift, rest) in terms:
            if c:
                coefficient = domain(c) if isinstance(c, int) else domain.convert(sympy.Rational(c))
                groups.setdefault(tuple(rest.terms()), (rest, []))[1].append((coefficient, numer, shift))
        if not groups:
            return ring.zero, ring.one
        top = tuple(max(exponents) for exponents in zip(*(shift for _, parts in groups.values()
                                                             for _, _, shift in parts)))
        rests = [rest for rest, _ in groups.values()]
        common = ring.one
        for rest in rests:
            common *= rest
        numerator = ring.zero
        for index, (rest, parts) in enumerate(groups.values()):
            sums: dict[tuple[int, ...], object] = {}  # monomial -> coefficient: one pass, no intermediate polynomials
            for coefficient, numer, shift in parts:
                offset = tuple(t - m for t, m in zip(top, shift))
                for monom, value in numer.items():
                    key = tuple(e + o for e, o in zip(monom, offset))
                    sums[key] = sums.get(key, domain.zero) + coefficient * value
            partial = ring.from_dict({monom: value for monom, value in sums.items() if value})
            for other, cofactor in enumerate(rests):  # common / rest, without a division
                if other != index:
                    partial *= cofactor
            numerator += partial
        return numerator, common.mul_monom(top) if any(top) else common

    def sign(self, numerator: object, denominator: object) -> int:
        """The exact sign of numerator / denominator at s_i = exp(b_i)."""
        return self.polynomial_sign(numerator) * self.polynomial_sign(denominator)

    def polynomial_sign(self, polynomial: object) -> int:
        """The exact sign of a polynomial with rational coefficients at s_i = exp(b_i).

        The zero polynomial gives 0. Otherwise the polynomial is evaluated in mpmath interval arithmetic
        at 30, 120, 500 and 2000 digits, until the enclosure excludes 0 (for one generator it cannot
        vanish, as s is transcendental).

        Raises:
            UndecidedSignError: the enclosure still contains 0 at 2000 digits.
        """
        if not polynomial:
            return 0
        terms = list(polynomial.terms())
        for digits in (30, 120, 500, 2000):
            ctx = interval_context(dps_to_prec(digits + 10))
            points = [self._enclosure(ctx, b, digits + 10) for b in self.exponents]
            if any(point is None for point in points):
                continue
            value = ctx.mpf(0)
            for monom, c in terms:
                term = ctx.mpf(int(c.numerator)) / int(c.denominator)
                for point, power in zip(points, monom):
                    if power:
                        term *= point ** power
                value += term
            if value.a > 0:
                return 1
            if value.b < 0:
                return -1
        raise UndecidedSignError(f"could not decide the sign of a polynomial with {len(terms)} terms at "
                                 f"exp({', '.join(map(str, self.exponents))})")

    @staticmethod
    def _enclosure(ctx: MPIntervalContext, b: sympy.Expr, digits: int):
        """An interval holding exp(b), from the exact rational b or a proved bracket of it."""
        if not b.is_Rational:
            try:
                low, high = proved_bracket(b, digits)
            except UndecidedSignError:
                return None
            return ctx.exp(ctx.mpf([ctx.mpf(int(low.p)) / int(low.q), ctx.mpf(int(high.p)) / int(high.q)]))
        return ctx.exp(ctx.mpf(int(b.p)) / int(b.q))


def _exponentials(exprs: Iterable[sympy.Expr]) -> dict[sympy.Expr, sympy.Expr]:
    """Every exponential atom of ``exprs`` (E included) with its exponent."""
    powers: dict[sympy.Expr, sympy.Expr] = {}
    for expr in exprs:
        powers.update((a, a.args[0]) for a in expr.atoms(sympy.exp))
        if expr.has(sympy.E):
            powers[sympy.E] = sympy.Integer(1)
    return powers


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
        opaque, logs = _opaque_logs(expr)
        cancelled = sympy.cancel(opaque.xreplace(field.substitution))
        return cancelled.subs(field.generator, field.value).xreplace(logs)


def _opaque_logs(expr: sympy.Expr) -> tuple[sympy.Expr, dict[sympy.Dummy, sympy.Expr]]:
    """``expr`` with each logarithm replaced by a symbol, and the map back.

    Substituting symbols for the exponentials inside a logarithm rebuilds it around a polynomial, and
    sympy's log then asks whether that polynomial is nonnegative by factoring it (minutes at degree 10^4).
    """
    logs = {a: sympy.Dummy(real=True) for a in expr.atoms(sympy.log)}
    return expr.xreplace(logs), {v: a for a, v in logs.items()}


def _cancel_independently(expr: sympy.Expr) -> sympy.Expr:
    """``expr`` cancelled as a rational function of its exponentials taken as independent symbols."""
    opaque, logs = _opaque_logs(expr)
    atoms = sorted(opaque.atoms(sympy.exp), key=sympy.default_sort_key) + ([sympy.E] if opaque.has(sympy.E) else [])
    symbols = {a: sympy.Dummy(positive=True) for a in atoms}
    cancelled = sympy.cancel(opaque.xreplace(symbols))
    return cancelled.xreplace({v: a for a, v in symbols.items()}).xreplace(logs)


def _strict_evalf(expr: sympy.Expr, digits: int, working_digits: int) -> sympy.Expr | None:
    """sympy's ``evalf(strict=True)`` of ``expr``, or None where it gives up.

    Not a certificate: strict evaluation still rounds a function's argument to the working precision
    (log(1 + 10^-40) evaluates to 0), so a sign read from it is only a fallback for functions interval
    arithmetic does not cover (:func:`dpcert.mechanisms.interval_sign.interval_sign`). A closed form that sympy
    cannot evaluate at all (an overflow inside its assumptions) gives None.
    """
    try:
        approx = expr.evalf(digits, strict=True, maxn=working_digits)
    except (sympy.core.evalf.PrecisionExhausted, OverflowError, ValueError):
        return None
    return approx if approx.is_Number else None


_MAX_BRACKET_BITS = 100_000
"""Values beyond 2^(+-100000) are not bracketed: their rational end points would be too long to compute with."""


def proved_bracket(expr: sympy.Expr, digits: int) -> tuple[sympy.Rational, sympy.Rational]:
    """Rationals lo < expr < hi with hi - lo = 2 |expr| 10^-digits (about), proved by interval arithmetic.

    An evaluation a (sympy's, at ``digits`` + 5, then more digits: it can be wrong where a function's
    argument is rounded, log(1 + 10^-40) at 30 digits is 0) is accepted only when
    :func:`dpcert.mechanisms.interval_sign.interval_sign` shows expr - a (1 -+ 10^-digits) have opposite signs.

    Raises:
        UndecidedSignError: no evaluation could be proved (the value is 0, too close to 0, or built from
            functions interval arithmetic does not enclose).
    """
    expr = sympy.sympify(expr)
    for evaluation_digits in (digits + 5, 2 * digits + 40, 4 * digits + 200, 8 * digits + 1000):
        try:
            approx = expr.evalf(evaluation_digits, maxn=4 * evaluation_digits)
        except (OverflowError, ValueError):
            continue
        if not approx.is_Number or approx == 0:
            continue
        if abs(approx._mpf_[2] + approx._mpf_[3]) > _MAX_BRACKET_BITS:  # binary exponent: a rational would have
            break  # millions of digits (exp(-exp(1000)) took hours to convert)
        centre = sympy.Rational(approx)
        radius = abs(centre) / 10**digits
        low, high = centre - radius, centre + radius
        if interval_sign(expr - low) == 1 and interval_sign(expr - high) == -1:
            return low, high
    raise UndecidedSignError(f"could not evaluate {_short(expr)} to {digits} proved digits")


def certified_value(expr: sympy.Expr) -> sympy.Float:
    """``expr`` to 19 proved significant digits (:func:`proved_bracket`), as a 20-digit Float.

    Raises:
        UndecidedSignError: see :func:`proved_bracket`.
    """
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return sympy.Float(expr, 20)
    low, high = proved_bracket(expr, 19)
    return sympy.Float((low + high) / 2, 20)


def certified_float(expr: sympy.Expr) -> float:
    """A closed-form real number rounded to float64 from a proved 20-digit evaluation (:func:`certified_value`).

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

    Rationals are compared exactly. Other numbers are first enclosed in interval arithmetic
    (:func:`dpcert.mechanisms.interval_sign.interval_sign`): an enclosure that excludes 0 proves the sign.
    sympy's ``evalf(strict=True)`` is only the fallback for functions the intervals do not cover: it is
    not certified (it evaluates log(1 + 10^-40) to exactly 0, so log(1 + 10^-40) - 10^-300 read as
    negative). A number whose enclosure keeps 0 is decided by cancellation in Q(exp(b/q)) or by
    simplification.

    Raises:
        UndecidedSignError: neither the evaluation nor the simplification could decide.
    """
    if expr.is_Rational:
        return (expr.p > 0) - (expr.p < 0)
    # sympy's own ``is_zero`` is not consulted: it answers from a low-precision evaluation and calls
    # log(1 + 10^-25) - log(1 / (1 - 10^-25)) zero when it is -1e-50 (tests/mechanisms/test_parameters.py)
    proved = interval_sign(expr)
    if proved is not None:
        return proved
    without_logs = _without_logarithms(expr)
    if without_logs is not None:
        return exact_sign(without_logs)
    for digits in (30, 120, 500):
        approx = _strict_evalf(expr, digits, 4 * digits)
        if approx is not None and approx != 0:
            return 1 if approx > 0 else -1
        if digits == 30:
            # an exact tie is 0 once cancelled; a near tie usually loses its cancellation too:
            # 1 - e^10000/(1 + e^10000) needs 4343 digits, its cancelled form 1/(1 + e^10000) does not
            cancelled = cancel_exponentials(expr)
            if cancelled == 0:
                return 0
            approx = _strict_evalf(cancelled, 30, 120)
            if approx is not None and approx != 0:
                return 1 if approx > 0 else -1
    if sympy.simplify(expr) == 0:  # an identity; sympy.equals would decide from a random evaluation
        return 0
    raise UndecidedSignError(f"could not decide the sign of {_short(expr)}")


_MAX_LOG_POWER = 4
"""Largest |c| of a term c log(A) that :func:`_without_logarithms` raises A to."""


def _without_logarithms(expr: sympy.Expr) -> sympy.Expr | None:
    """A log-free number with the sign of ``expr``, when ``expr`` is r + sum c_i log(A_i) (r rational, c_i
    small integers, A_i > 0 proved); else None.

    log is increasing: the sum has the sign of prod A_i^{c_i} e^r - 1, written as P - Q with the positive
    powers (and e^r, r > 0) in P and the negative ones in Q. Near ties of logarithms of exponential sums
    (5670 - log(A) with A = e^5670 (1 + e^-5670 ...)) then cancel exactly instead of needing 2500 digits.
    """
    terms = sympy.Add.make_args(expr)
    if not any(t.has(sympy.log) for t in terms):
        return None
    up, down = [], []
    for term in terms:
        if term.is_Rational:
            (up if term > 0 else down).append(sympy.exp(abs(term)))
            continue
        coefficient, rest = term.as_coeff_Mul()
        if not (isinstance(rest, sympy.log) and coefficient.is_Integer and 0 < abs(coefficient) <= _MAX_LOG_POWER):
            return None
        argument = rest.args[0]
        if argument.has(sympy.log) or interval_sign(argument) != 1:
            return None
        (up if coefficient > 0 else down).append(argument ** abs(int(coefficient)))
    return sympy.Mul(*up) - sympy.Mul(*down)


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
