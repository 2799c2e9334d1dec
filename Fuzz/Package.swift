// swift-tools-version: 6.0
import PackageDescription

// The libFuzzer target over extraction, analysis and rendering. A package of its own, so that the
// normal `swift build` of machine-viz never compiles it: it needs `-sanitize=fuzzer` on every module,
// which scripts/fuzz.sh passes (Linux; see docs/reliability.md).
let package = Package(
    name: "MachineVizFuzz",
    dependencies: [
        .package(name: "machine-viz", path: ".."),
    ],
    targets: [
        .executableTarget(name: "MachineVizFuzz", dependencies: [
            .product(name: "MachineViz", package: "machine-viz"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
