"""SPEC P (口径对齐): an offer's effective GPU-hour price, and the sum that produced it."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

import engine

from .models import BillingBasis, Offer


@dataclass(frozen=True, slots=True)
class GpuHourPrice:
    value: float | None  # None when the offer's terms do not give a price (never for valid rows)
    derivation: str


def _money(value: float) -> str:
    return f"{value:,.2f}"


def _plain(value: float) -> str:
    """2,000 rather than 2,000.00; 0.75 rather than 0.750000."""
    text = f"{value:,.4f}".rstrip("0").rstrip(".")
    return text or "0"


def gpu_hour_price(offer: Offer, currency: str) -> GpuHourPrice:
    """The engine's effective price, with its derivation in the user's language."""
    try:
        value = engine.effective_gpu_hour_price(
            offer.billing_basis,
            offer.price,
            offer.gpus_per_machine,
            offer.contract_hours,
            offer.expected_utilization,
        )
    except (ValueError, TypeError, ZeroDivisionError):
        return GpuHourPrice(None, _("The billing terms are incomplete: no GPU-hour price."))
    shown = {
        "price": _money(offer.price),
        "value": _money(value),
        "currency": currency,
        "gpus": offer.gpus_per_machine,
    }
    if offer.billing_basis == BillingBasis.MACHINE_HOUR:
        text = _("machine-hour %(price)s ÷ %(gpus)s GPUs = %(value)s %(currency)s/GPU-h") % shown
    elif offer.billing_basis == BillingBasis.CONTRACT:
        shown["hours"] = _plain(offer.contract_hours)
        shown["utilization"] = _plain(offer.expected_utilization)
        text = (
            _(
                "contract %(price)s ÷ (%(hours)s h × %(gpus)s GPUs × %(utilization)s) "
                "= %(value)s %(currency)s/GPU-h"
            )
            % shown
        )
    else:
        text = _("GPU-hour price %(price)s = %(value)s %(currency)s/GPU-h") % shown
    return GpuHourPrice(value, text)
