// swift-tools-version: 6.1
import PackageDescription

// Instruction counts of the encode benchmarks' requests under callgrind: a plain
// executable with no benchmark harness, so that valgrind measures only the
// encoding. Run from the repo root:
//
//   bash scripts/instruction-counts.sh
//
// The fixtures are the benchmark package's own (`EncodeFixtures.swift` is a link
// to them), so both measure the same requests.
let package = Package(
    name: "InstructionCounts",
    dependencies: [
        .package(name: "APIKit", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [.product(name: "APIKit", package: "APIKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
