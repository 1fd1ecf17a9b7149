"""The ratio of two means with its confidence interval: "B is 1.52 ± 0.04 times A".

The interval is the delta method's (first-order error propagation, as hyperfine reports its
"± " on a ratio): for r = mean(a) / mean(b) with standard errors se_a, se_b,

    se_r = r · √((se_a / mean_a)² + (se_b / mean_b)²)

and the half-width is t(1 − α/2, ν) · se_r, where ν is the Welch–Satterthwaite degrees of
freedom of the two relative errors, ν = (u_a + u_b)² / (u_a² / (n_a − 1) + u_b² / (n_b − 1))
with u = (se / mean)². It is an approximation that holds while both means are well away from zero
(their relative errors small); Fieller's interval is exact but can be unbounded. None when a side
has fewer than two finite values or a zero mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np
from scipy import stats as sps

from .summary import clean


@dataclass(frozen=True)
class Ratio:
    value: float            # mean(a) / mean(b)
    half: float             # half-width of the interval: value ± half
    dof: float              # Welch–Satterthwaite degrees of freedom
    confidence: float = 0.95


def ratio_of_means(a: Sequence, b: Sequence, confidence: float = 0.95) -> Optional[Ratio]:
    x, _ = clean(a)
    y, _ = clean(b)
    if len(x) < 2 or len(y) < 2:
        return None
    ma, mb = float(np.mean(x)), float(np.mean(y))
    if ma == 0 or mb == 0:
        return None
    ua = float(np.var(x, ddof=1)) / len(x) / ma ** 2
    ub = float(np.var(y, ddof=1)) / len(y) / mb ** 2
    r = ma / mb
    if ua + ub == 0:
        return Ratio(r, 0.0, math.inf, confidence)
    dof = (ua + ub) ** 2 / (ua ** 2 / (len(x) - 1) + ub ** 2 / (len(y) - 1))
    t = float(sps.t.ppf(0.5 + confidence / 2, dof))
    return Ratio(r, t * abs(r) * math.sqrt(ua + ub), dof, confidence)
