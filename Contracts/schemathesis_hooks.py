"""schemathesis hooks for Contracts/openapi.json (loaded by Scripts/ci-external-checks through
SCHEMATHESIS_HOOKS=schemathesis_hooks with Contracts/ on PYTHONPATH).

OpenAPI cannot say that two query parameters only come together. Autocomplete's
`circle_center` and `circle_radius` do (one without the other is a documented 400), so
schema-valid ("positive") cases that carry exactly one of them are dropped; negative cases
keep them (the 400 is the expected answer there).
"""

import schemathesis

PAIRS = {"/api/autocomplete/v4": [("circle_center", "circle_radius")]}


@schemathesis.hook
def filter_case(context, case):
    operation = getattr(context, "operation", None)
    pairs = PAIRS.get(getattr(operation, "path", None), [])
    meta = getattr(case, "meta", None)
    positive = meta is None or meta.generation.mode.is_positive
    if not pairs or not positive:
        return True
    query = case.query or {}

    def given(name):
        # An empty value counts as absent (allowEmptyValue), as the simulator reads it.
        return query.get(name) not in (None, "", [])

    return all(given(a) == given(b) for a, b in pairs)
