import Foundation

/// Debounced autocomplete (reference tip: "debounce typing (>= 300 ms) before firing
/// autocomplete"). Call `suggestions(for:)` on every keystroke; each call waits `delay`, and only
/// the latest call of a burst sends a request. Earlier calls return `nil` ("superseded: ignore
/// me"), also when a newer call arrives while their request is in flight, and when the calling
/// task is cancelled. A non-nil answer is always for the latest text.
///
/// ```swift
/// let search = DebouncedAutocomplete(provider: HTTPVietMapProvider.live(apiKey: key), cache: SuggestionCache())
/// // on every text change:
/// if let items = try await search.suggestions(for: text, focus: here) { show(items) }
/// ```
public actor DebouncedAutocomplete {
    public let provider: any VietMapProvider
    public let delay: Duration
    public let cache: SuggestionCache?
    private let clock: any VMClock
    private var generation: UInt64 = 0

    /// - Parameters:
    ///   - delay: quiet time before a query is sent; at least 300 ms is recommended.
    ///   - cache: answers repeated queries without a request (see `SuggestionCache`).
    ///   - clock: time source for the delay (inject `VMManualClock` in tests).
    public init(provider: any VietMapProvider, delay: Duration = .milliseconds(300), cache: SuggestionCache? = nil,
                clock: any VMClock = VMSystemClock()) {
        self.provider = provider
        self.delay = delay
        self.cache = cache
        self.clock = clock
    }

    /// The suggestions for `text`, or `nil` when a newer call superseded this one.
    /// Blank text supersedes pending calls and returns `[]` at once (nothing is sent).
    public func suggestions(for text: String, focus: VMCoordinate? = nil, displayType: Int = 1,
                            additionalParameters: [VMParameter] = []) async throws(VMClientError) -> [VMSearchItem]? {
        generation &+= 1
        let mine = generation
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return [] }
        do {
            try await clock.sleep(for: delay)
        } catch {
            return nil // cancelled while waiting
        }
        guard mine == generation, !Task.isCancelled else { return nil }
        do throws(VMClientError) {
            let items: [VMSearchItem]
            if let cache {
                items = try await cache.suggestions(text: text, focus: focus, displayType: displayType,
                                                    additionalParameters: additionalParameters, from: provider)
            } else {
                items = try await provider.autocomplete(text: text, focus: focus, displayType: displayType,
                                                        additionalParameters: additionalParameters)
            }
            return mine == generation ? items : nil
        } catch {
            if mine != generation { return nil }
            if case .cancelled = error { return nil }
            throw error
        }
    }

    /// Supersedes every pending call (they return `nil`), e.g. when the search field is closed.
    public func cancelPending() { generation &+= 1 }
}
