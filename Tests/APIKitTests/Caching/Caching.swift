/// The namespace of the tests of `Sources/APIKit/Caching/`, so that `--filter Caching` runs
/// them all.
enum Caching {}
