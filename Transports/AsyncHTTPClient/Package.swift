// swift-tools-version:6.0
import PackageDescription

// The AsyncHTTPClient transport lives in its own package so that the root package keeps no
// dependencies: users who want this engine add this product beside `APIKit`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "APIKitAsyncHTTPClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "APIKitAsyncHTTPClient", targets: ["APIKitAsyncHTTPClient"])
    ],
    dependencies: [
        .package(name: "APIKit", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already in async-http-client's graph (same minimums); named here because the transport
        // reads NIO's and NIOSSL's error types to map them to URLError.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
    ],
    targets: [
        .target(
            name: "APIKitAsyncHTTPClient",
            dependencies: [
                .product(name: "APIKit", package: "APIKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // The root package's test helpers (a completion probe, a lock box, a seeded generator):
        // `Tests/APIKitTestSupport` here is a symlink to the root's folder, as the root package
        // does not publish them as a product.
        .target(name: "APIKitTestSupport", path: "Tests/APIKitTestSupport", swiftSettings: strictSettings),
        // The clocks tests drive, symlinked from the root as above.
        .target(
            name: "APIKitTestTime",
            dependencies: [.product(name: "APIKit", package: "APIKit"), "APIKitTestSupport"],
            path: "Tests/APIKitTestTime",
            swiftSettings: strictSettings),
        // The one test target: this transport's own tests and the root package's integration
        // suite, `Tests/APIKitIntegrationTests` being a symlink to the root's folder, compiled with
        // `APIKIT_TEST_TRANSPORT_AHC` so that its `TestTransport` hands out
        // `AsyncHTTPClientTransport`s (by default) or the root package's `URLSession` transports
        // (`APIKIT_TEST_TRANSPORT=urlsession` at run time). One target, so that this transport's
        // tests use the suite's servers, requests and helpers. The root package's unit tests are
        // not compiled here: they run in the root package (scripts/test.sh), which builds no
        // SwiftNIO.
        .testTarget(
            name: "APIKitAsyncHTTPClientTests",
            dependencies: [
                "APIKitAsyncHTTPClient",
                "APIKitTestSupport",
                "APIKitTestTime",
                .product(name: "APIKit", package: "APIKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests",
            exclude: ["APIKitTestSupport", "APIKitTestTime"],
            sources: ["APIKitAsyncHTTPClientTests", "APIKitIntegrationTests"],
            swiftSettings: strictSettings + [.define("APIKIT_TEST_TRANSPORT_AHC")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
