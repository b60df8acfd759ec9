// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "APIKit",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "APIKit", targets: ["APIKit"]),
        .library(name: "APIKitParsers", targets: ["APIKitParsers"]),
    ],
    targets: [
        .target(name: "APIKitParsers", swiftSettings: strictSettings),
        .target(name: "APIKit", dependencies: ["APIKitParsers"], swiftSettings: strictSettings),
        .executableTarget(
            name: "APIKitExample",
            dependencies: ["APIKit"],
            path: "Examples/QuickStart",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "GiphyExample",
            dependencies: ["APIKit"],
            path: "Examples/Giphy",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "CryptoAssetsExample",
            dependencies: ["APIKit"],
            path: "Examples/CryptoAssets",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "AppAPIExample",
            dependencies: ["APIKit"],
            path: "Examples/AppAPI",
            swiftSettings: strictSettings
        ),
        .target(
            name: "MeteorAPI",
            dependencies: ["APIKit"],
            path: "Examples/MeteorAPI",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "MeteorUploadExample",
            dependencies: ["MeteorAPI"],
            path: "Examples/MeteorUpload",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "APIKitSoak",
            dependencies: ["APIKit"],
            path: "Tests/Soak",
            swiftSettings: strictSettings
        ),
        // Helpers shared by the test targets (a seeded generator, a lock box, a completion probe); not a product.
        .target(name: "APIKitTestSupport", path: "Tests/APIKitTestSupport", swiftSettings: strictSettings),
        .testTarget(name: "APIKitTestSupportTests", dependencies: ["APIKitTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "APIKitParsersTests",
            dependencies: ["APIKitParsers", "APIKitTestSupport"],
            swiftSettings: strictSettings
        ),
        // The clocks tests drive (ManualTime, CancellingBackoffTime), built on APIKit's
        // `@_spi(Testing)` TimeSource, and the two-hook interceptor most tests write
        // (AdaptingInterceptor); shared with the AsyncHTTPClient package's tests.
        .target(
            name: "APIKitTestTime", dependencies: ["APIKit", "APIKitTestSupport"], path: "Tests/APIKitTestTime",
            swiftSettings: strictSettings),
        .testTarget(
            name: "APIKitTests", dependencies: ["APIKit", "APIKitTestSupport", "APIKitTestTime"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["MeteorAPI", "APIKitTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "APIKitIntegrationTests",
            dependencies: ["APIKit", "APIKitTestSupport", "APIKitTestTime"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `APIKIT_TSAN_SCOPE=1`: the graph of scripts/test.sh's thread-sanitizer build and run (step 7a,
// in .build-tsan), without the targets that pass would compile and never run: the example and soak
// programs (step 5 runs the examples, from the plain build) and APIKitParsersTests (pure parsing:
// step 4 runs it, step 9 fuzzes the parsers under ASan). The libraries and the other test targets
// are the same in both graphs.
if Context.environment["APIKIT_TSAN_SCOPE"] == "1" {
    let notRunUnderTSan: Set<String> = [
        "APIKitExample", "GiphyExample", "CryptoAssetsExample", "AppAPIExample", "MeteorUploadExample",
        "APIKitSoak", "APIKitParsersTests",
    ]
    package.targets.removeAll { notRunUnderTSan.contains($0.name) }
}
