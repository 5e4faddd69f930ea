import Foundation
import VietMapWire

/// The URLs a map view loads its style from — every generation VietMap's SDKs use — and the raster
/// tile template, for the live service or the simulator, built from a base URL and an API key.
///
/// | method | path | who uses it |
/// |---|---|---|
/// | `style(_:)` | `/maps/styles/{tm\|lm\|dm}/style.json` | current vector styles (vietmap-gl ≥ 6, the Flutter API plugin) |
/// | `rasterStyle(_:)` | `/maps/styles/{tm\|lm\|dm}/tiles.json` | the same plugins' raster styles |
/// | `sdkStyle(_:flavour:)` | `/api/maps/{light\|dark\|raster}/styles.json` | the Flutter and React Native map SDKs, the navigation SDKs |
/// | `legacyStyle(_:)` | `/mt/{tm\|lm\|dm}/style.json` | vietmap-gl ≤ 5 |
/// | `rasterTileTemplate(_:)` | `/api/{tm\|lm\|dm}/{z}/{x}/{y}@2x.png` | raster sources (512-px tiles on a 256 grid) |
///
/// Each carries `?apikey=` (strictly percent-encoded, as `VMRequest` encodes queries) unless the key is
/// nil or empty (a key-adding proxy). A base URL's path prefix and query are kept, as
/// `HTTPVietMapProvider` keeps them. Only the URLs: nothing is fetched.
///
///     import MapLibre
///     let styles = try VietMapStyleURL(apiKey: key)              // https://maps.vietmap.vn
///     // or, against `vietmap-sim serve`: try VietMapStyleURL(HTTPVietMapProvider.simulator())
///     let mapView = MLNMapView(frame: view.bounds, styleURL: styles.style(.dark))
public struct VietMapStyleURL: Sendable, Hashable {
    /// `https://maps.vietmap.vn`.
    public static let liveBaseURL = HTTPVietMapProvider.liveBaseURL

    public let baseURL: URL
    /// Sent as `apikey`; nil or empty sends none.
    public let apiKey: String?

    /// The URLs of one look, built and checked once.
    private struct LookURLs: Sendable, Hashable {
        let style, rasterStyle, sdkStyle, legacyStyle: URL
        let rasterTileTemplate: String
    }
    private let standard, light, dark: LookURLs
    private let sdkRasterStyle: URL
    /// Scheme, host, port and path prefix without a trailing `/`.
    private let root: String
    /// `?…` (the base URL's query, then `apikey`), or "".
    private let query: String

    /// Throws `invalidArgument` when `baseURL` is not an `http`/`https` URL with a host.
    public init(baseURL: URL = liveBaseURL, apiKey: String?) throws(VMClientError) {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              components.host?.isEmpty == false else {
            throw .invalidArgument("base URL \(baseURL) is not an http(s) URL with a host")
        }
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let key = apiKey.flatMap { $0.isEmpty ? nil : "apikey=" + VMQueryEncoding.encode($0) }
        let queryItems = [components.percentEncodedQuery, key].compactMap { $0?.isEmpty == false ? $0 : nil }
        components.percentEncodedPath = prefix
        components.percentEncodedQuery = nil
        components.fragment = nil
        guard let rootURL = components.url else { throw .invalidArgument("cannot form a URL from \(baseURL)") }
        let root = rootURL.absoluteString
        let query = queryItems.isEmpty ? "" : "?" + queryItems.joined(separator: "&")

        func url(_ path: String) throws(VMClientError) -> URL {
            guard let url = URL(string: root + path + query) else {
                throw .invalidArgument("cannot form a URL from \(baseURL) and \(path)")
            }
            return url
        }
        func urls(_ look: MapLook) throws(VMClientError) -> LookURLs {
            LookURLs(style: try url("/maps/styles/\(look.rawValue)/style.json"),
                     rasterStyle: try url("/maps/styles/\(look.rawValue)/tiles.json"),
                     sdkStyle: try url("/api/maps/\(look == .dark ? "dark" : "light")/styles.json"),
                     legacyStyle: try url("/mt/\(look.rawValue)/style.json"),
                     rasterTileTemplate: root + "/api/\(look.rawValue)/{z}/{x}/{y}@2x.png" + query)
        }
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.root = root
        self.query = query
        standard = try urls(.standard)
        light = try urls(.light)
        dark = try urls(.dark)
        sdkRasterStyle = try url("/api/maps/raster/styles.json")
    }

    /// The style URLs of the service `provider` talks to, with its key.
    public init(_ provider: HTTPVietMapProvider) throws(VMClientError) {
        try self.init(baseURL: provider.baseURL, apiKey: provider.apiKey)
    }

    /// The current vector style: `/maps/styles/{tm|lm|dm}/style.json?apikey=…`.
    public func style(_ look: MapLook = .standard) -> URL { urls(look).style }

    /// The current raster style (a TileJSON the plugins hand to a map view as a style):
    /// `/maps/styles/{tm|lm|dm}/tiles.json?apikey=…`.
    public func rasterStyle(_ look: MapLook = .standard) -> URL { urls(look).rasterStyle }

    /// The Flutter/React Native SDKs' form, `/api/maps/{light|dark|raster}/styles.json?apikey=…`. This
    /// generation has no separate default and light looks (both are `light`) and one raster style
    /// for every look.
    public func sdkStyle(_ look: MapLook = .standard, flavour: MapStyleFlavour = .vector) -> URL {
        flavour == .raster ? sdkRasterStyle : urls(look).sdkStyle
    }

    /// The legacy vector style of vietmap-gl ≤ 5: `/mt/{tm|lm|dm}/style.json?apikey=…`.
    public func legacyStyle(_ look: MapLook = .standard) -> URL { urls(look).legacyStyle }

    /// The raster tile template for a raster source's `tiles`: `…/api/{tm|lm|dm}/{z}/{x}/{y}@2x.png?apikey=…`,
    /// braces literal (a `String`: `URL` would escape them). Declare the source with `tileSize` 256.
    public func rasterTileTemplate(_ look: MapLook = .standard) -> String { urls(look).rasterTileTemplate }

    /// One raster tile (XYZ), or nil when no tile has these coordinates (`z` outside 0…24, `x` or `y` outside 0..<2^z).
    public func rasterTile(_ look: MapLook = .standard, z: Int, x: Int, y: Int) -> URL? {
        guard z >= 0, z <= 24, x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        return URL(string: root + "/api/\(look.rawValue)/\(z)/\(x)/\(y)@2x.png" + query)
    }

    private func urls(_ look: MapLook) -> LookURLs {
        switch look {
        case .standard: return standard
        case .light: return light
        case .dark: return dark
        }
    }
}
