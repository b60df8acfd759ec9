// swift-tools-version: 6.1
import PackageDescription

// Instruction counts of the end-to-end benchmarks' request under callgrind: a plain
// executable with no benchmark harness that sends `GET items.json` through `perform`
// or a raw `URLSession` data task to the nginx the script starts. Run from the repo
// root:
//
//   bash scripts/e2e-instruction-counts.sh
//
// `ParseFixtures.swift` is a link to the benchmark package's (the `Feed` both sides
// decode).
let package = Package(
    name: "EndToEndCounts",
    dependencies: [
        .package(name: "APIKit", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "EndToEndCounts",
            dependencies: [.product(name: "APIKit", package: "APIKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
