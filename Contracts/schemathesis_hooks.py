"""schemathesis hooks for Contracts/openapi.json (loaded by Scripts/ci-external-checks through
SCHEMATHESIS_HOOKS=schemathesis_hooks with Contracts/ on PYTHONPATH).

OpenAPI cannot say that two query parameters only come together. Autocomplete's and
search's `circle_center` and `circle_radius` do (one without the other is a documented 400), so
schema-valid ("positive") cases that carry exactly one of them are dropped; negative cases
keep them (the 400 is the expected answer there). Likewise migrate-address's `migrate_type=2`
needs `focus` (REQUIRES).
"""

import schemathesis

CIRCLE = [("circle_center", "circle_radius")]
PAIRS = {path: CIRCLE for path in ("/api/autocomplete/v4", "/api/search/v4", "/api/autocomplete/v3", "/api/search/v3")}
# path -> [(parameter, value, the parameter that value needs)]
REQUIRES = {"/api/migrate-address/v3": [("migrate_type", "2", "focus")]}


@schemathesis.hook
def filter_case(context, case):
    operation = getattr(context, "operation", None)
    path = getattr(operation, "path", None)
    pairs = PAIRS.get(path, [])
    requires = REQUIRES.get(path, [])
    meta = getattr(case, "meta", None)
    positive = meta is None or meta.generation.mode.is_positive
    if not (pairs or requires) or not positive:
        return True
    query = case.query or {}

    def given(name):
        # An empty value counts as absent (allowEmptyValue), as the simulator reads it.
        return query.get(name) not in (None, "", [])

    if any(str(query.get(name)) == value and not given(needed) for name, value, needed in requires):
        return False
    return all(given(a) == given(b) for a, b in pairs)
