// The C library of the platform, re-exported: `import Platform` gives every target the POSIX
// calls it needs without naming Glibc, Musl or Darwin. Everything whose *Swift shape* differs
// between them (socket types, rlimit resources, spawn attributes, memory readings) lives in this
// target's other files; a target outside it never needs `#if canImport(Glibc)`
// (`Scripts/check-portability` enforces that).
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("vietmap-sim supports Linux (Glibc, Musl) and Apple platforms (Darwin)")
#endif
