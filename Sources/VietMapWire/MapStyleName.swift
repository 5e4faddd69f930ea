/// The style names of the oldest URL generation, `/api/maps/{name}/styles.json` (reference
/// map-screens §2, S1), and what the simulator serves for each.
///
/// `light` is VietMap's default look (`tm`), `dark` its dark look, `raster` the default look drawn
/// from raster tiles. VietMap hands satellite and hybrid styles out by e-mail and the simulator has
/// no imagery: `satellite`, `hybrid` and `google-satellite` are answered by a **stand-in**, the
/// raster style of the default look, and `google` by the default vector style — so an app
/// configured with any of them still shows a map (`isStandIn` says which).
public enum MapStyleName: String, Sendable, CaseIterable, Hashable {
    case light
    case dark
    case raster
    case satellite
    case hybrid
    case google
    case googleSatellite = "google-satellite"

    /// What the style draws from.
    public var flavour: MapStyleFlavour {
        switch self {
        case .light, .dark, .google: return .vector
        case .raster, .satellite, .hybrid, .googleSatellite: return .raster
        }
    }

    /// The look whose palette the style uses.
    public var look: MapLook { self == .dark ? .dark : .standard }

    /// Whether the simulator answers this name with another style (no imagery, no Google style).
    public var isStandIn: Bool {
        switch self {
        case .light, .dark, .raster: return false
        case .satellite, .hybrid, .google, .googleSatellite: return true
        }
    }
}
