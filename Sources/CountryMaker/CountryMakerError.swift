/// A one-line failure of `make-country`.
public struct CountryMakerError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
