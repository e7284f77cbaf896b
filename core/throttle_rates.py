"""THROTTLE_RATES read and checked when the settings are (core/throttles.py counts them)."""

from django.core.exceptions import ImproperlyConfigured

# The four scopes and their rates unless THROTTLE_RATES says otherwise (docs/settings.md).
DEFAULT_RATES = {
    "jobs": "60/hour",
    "exports": "300/hour",
    "login": "10/minute",
    "lookups": "1200/minute",
}
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def throttle_rates(text: str) -> dict[str, tuple[int, int]]:
    """Each scope's (requests, seconds): DEFAULT_RATES, with the `scope=N/period` entries of
    `text` (comma-separated; period second, minute, hour or day) instead. A wrong entry stops
    the process at start, naming THROTTLE_RATES."""
    rates = {scope: _rate(scope, rate) for scope, rate in DEFAULT_RATES.items()}
    for entry in filter(None, (entry.strip() for entry in text.split(","))):
        scope, _, rate = entry.partition("=")
        if scope.strip() not in DEFAULT_RATES:
            raise ImproperlyConfigured(
                f"THROTTLE_RATES: unknown scope {scope.strip()!r}; "
                f"the scopes are {', '.join(DEFAULT_RATES)}"
            )
        rates[scope.strip()] = _rate(scope.strip(), rate.strip())
    return rates


def _rate(scope: str, rate: str) -> tuple[int, int]:
    number, _, period = rate.partition("/")
    if not number.isdigit() or int(number) < 1 or period not in PERIODS:
        raise ImproperlyConfigured(
            f"THROTTLE_RATES: {scope}={rate!r} is not a rate such as 60/hour "
            f"(a number from 1, then /{', /'.join(PERIODS)})"
        )
    return int(number), PERIODS[period]
