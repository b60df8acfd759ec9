import Testing

/// The suites of `Sources/APIKit/Streaming/`, nested here so that their test identifiers
/// start with `StreamingTests` and `swift test --filter Streaming` runs them all.
@Suite("Streaming decoders")
enum StreamingTests {}
