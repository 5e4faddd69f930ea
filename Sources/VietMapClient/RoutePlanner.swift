import Foundation

/// Routes with a memo (reference tip: "avoid re-requesting a route if both endpoints are
/// unchanged"). A route whose request is unchanged — same points (compared as sent, to 1e-6°),
/// vehicle, `pointsEncoded` and additional parameters — is answered from the memo; concurrent
/// identical calls share one request. Failures (including `.noRoute`) are not memoized.
public actor RoutePlanner {
    public let provider: any VietMapProvider
    /// How many distinct routes are kept (least recently used evicted).
    public let capacity: Int
    /// How long a memoized route stays valid; `nil` = until evicted.
    public let ttl: Duration?
    private let clock: any VMClock
    private var memo: [VMRequest: (route: VMRouteResponse, storedAt: Duration, usedAt: Duration)] = [:]
    private var inFlight: [VMRequest: Task<Result<VMRouteResponse, VMClientError>, Never>] = [:]

    /// Requests actually sent to the provider (for metrics and tests).
    public private(set) var requestsSent = 0

    public init(provider: any VietMapProvider, capacity: Int = 16, ttl: Duration? = nil,
                clock: any VMClock = VMSystemClock()) {
        self.provider = provider
        self.capacity = max(1, capacity)
        self.ttl = ttl
        self.clock = clock
    }

    public func route(points: [VMCoordinate], vehicle: VMVehicle = .car, pointsEncoded: Bool = true,
                      additionalParameters: [VMParameter] = []) async throws(VMClientError) -> VMRouteResponse {
        let request = try VMRequest.route(points: points, vehicle: vehicle, pointsEncoded: pointsEncoded,
                                          additionalParameters: additionalParameters)
        let now = clock.now
        if let entry = memo[request] {
            if let ttl, now - entry.storedAt >= ttl {
                memo.removeValue(forKey: request)
            } else {
                memo[request]?.usedAt = now
                return entry.route
            }
        }
        let task: Task<Result<VMRouteResponse, VMClientError>, Never>
        if let running = inFlight[request] {
            task = running
        } else {
            requestsSent += 1
            let provider = provider
            task = Task {
                do throws(VMClientError) {
                    return .success(try VMResponseDecoding.route(from: await provider.sendTyped(request)))
                } catch {
                    return .failure(error)
                }
            }
            inFlight[request] = task
        }
        let result = await task.value
        if inFlight[request] == task {
            inFlight.removeValue(forKey: request)
            if case .success(let route) = result {
                let stored = clock.now
                memo[request] = (route, stored, stored)
                while memo.count > capacity, let oldest = memo.min(by: { $0.value.usedAt < $1.value.usedAt })?.key {
                    memo.removeValue(forKey: oldest)
                }
            }
        }
        return try result.get()
    }

    /// Forgets every memoized route.
    public func removeAll() { memo.removeAll() }
}
