/// `GeoPoint` and `Geo` are in Routing's public API (routes are between `GeoPoint`s): a module that
/// imports Routing sees them, as when they were Routing's own.
@_exported import Geodesy
