/// A test that needs the shared dataset usually talks to a server too: importing SimTesting gives
/// `HTTPTestSupport`'s raw socket client and CLI runner as well. Tests that need no data (HTTP
/// transport, polyline, OSM reader) import `HTTPTestSupport` alone and build no data stack.
@_exported import HTTPTestSupport
