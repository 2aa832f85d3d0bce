"""Phone numbers in one form (E.164, "+351912345678") so the same number matches however it was
written: "+351 912 345 678", "912-345-678" with the region Portugal, "tel:+351912345678"."""

from __future__ import annotations

import os
import re

import phonenumbers

# Which country a number without "+" belongs to: NEURONS_PHONE_REGION, else the locale's country.
REGION_ENV = "NEURONS_PHONE_REGION"


def default_region() -> str | None:
    explicit = os.environ.get(REGION_ENV)
    if explicit:
        return explicit.upper()
    for var in ("LC_ALL", "LC_TELEPHONE", "LANG"):
        match = re.match(r"[a-z]{2,3}_([A-Z]{2})", os.environ.get(var, ""))
        if match:
            return match.group(1)
    return None


def e164(raw: str, region: str | None = None) -> str | None:
    """The E.164 form of a number, or None when it is not a possible phone number."""
    text = re.sub(r"^tel:", "", str(raw).strip(), flags=re.I).split(";")[0]
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_possible_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def normalise(raw: str, region: str | None = None) -> str:
    """E.164 when the number can be read, else the number as written (nothing is dropped)."""
    return e164(raw, region) or re.sub(r"^tel:", "", str(raw).strip(), flags=re.I)


def match_key(raw: str, region: str | None = None) -> str:
    """What two numbers share when they are the same: E.164, else their last nine digits."""
    return e164(raw, region) or re.sub(r"\D", "", str(raw))[-9:]


def shown(raw: str, region: str | None = None) -> str:
    """A number as people read it: grouped, as this region's people write their own numbers
    ("912 345 678"), a foreign one with its country code ("+44 20 7946 0958"); else as stored."""
    region = region or default_region()
    text = re.sub(r"^tel:", "", str(raw).strip(), flags=re.I)
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return text
    if not phonenumbers.is_possible_number(number):
        return text
    home = region is not None and phonenumbers.region_code_for_number(number) == region.upper()
    style = phonenumbers.PhoneNumberFormat.NATIONAL if home else phonenumbers.PhoneNumberFormat.INTERNATIONAL
    return phonenumbers.format_number(number, style)
