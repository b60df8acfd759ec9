// swift-tools-version: 6.1
import PackageDescription

// APIKit's benchmarks, a package of its own so that the library does not
// depend on package-benchmark. Run from the repo root:
//
//   bash scripts/benchmark.sh                 # everything, with a local nginx for e2e
//   swift package --package-path Benchmarks benchmark --filter 'Encode.*'
//
// The "MallocInterposer" trait alone: package-benchmark's default traits also
// pull in swift-runtime-interposer (ARC counters), which is not needed here.
/// What both executables send requests with: APIKit over each transport, and AsyncHTTPClient
/// itself for the raw baseline.
let clients: [Target.Dependency] = [
    .product(name: "APIKit", package: "APIKit"),
    .product(name: "APIKitAsyncHTTPClient", package: "APIKitAsyncHTTPClient"),
    .product(name: "AsyncHTTPClient", package: "async-http-client"),
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOFoundationCompat", package: "swift-nio"),
]

let package = Package(
    name: "APIKitBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "APIKit", path: ".."),
        // The AsyncHTTPClient transport (its own package) and the client itself, for the raw
        // AsyncHTTPClient baseline of the transport benchmarks.
        .package(name: "APIKitAsyncHTTPClient", path: "../Transports/AsyncHTTPClient"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "APIKitBenchmarks",
            dependencies: clients + [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/APIKitBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        // The transport benchmarks' GET under load without package-benchmark (no malloc
        // interposer, no batches): scripts/transport-load.sh. Its fixtures are links to the
        // benchmarks' own. Not in a folder named Benchmarks: package-benchmark's plugin runs every
        // executable target there as a benchmark.
        .executableTarget(
            name: "TransportLoad",
            dependencies: clients + [.product(name: "NIOPosix", package: "swift-nio")],
            path: "Sources/TransportLoad",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
