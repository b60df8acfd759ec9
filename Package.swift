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
