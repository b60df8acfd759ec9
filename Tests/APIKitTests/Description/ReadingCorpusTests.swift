import APIKitTestSupport
import Testing

@testable import APIKit

/// The fuzz target's comparison (`Tests/Fuzz/FieldPlanTarget.swift`, `bash scripts/fuzz.sh`) on
/// seeded inputs, so that every test run compares the plan with Mirror over generated values.
@Suite("the fuzz corpus: plan against Mirror over generated values")
struct ReadingCorpusTests {
    /// The plan of a corpus type, as the comparison makes it.
    private static func plan<Value: ReadingCorpus.Configuration>(_ type: Value.Type) -> FieldPlan? {
        ReadingCorpus.plan(for: type)
    }

    @Test("the corpus holds every FieldKind, and both ways of reading path segments")
    func everyKind() {
        var kinds = Set<UInt8>()
        var pathReadings = Set<Bool>()
        for (name, type) in ReadingCorpus.types {
            guard let plan = Self.plan(type) else {
                Issue.record("\(name) has no plan")
                continue
            }
            kinds.formUnion(plan.fields.map(\.kind.rawValue))
            if !plan.path.isEmpty { pathReadings.insert(plan.pathReadsInPlace) }
        }
        let missing = Set(FieldKind.allCases.map(\.rawValue)).subtracting(kinds)
        #expect(missing.isEmpty, "kinds no corpus type holds: \(missing.sorted())")
        #expect(pathReadings == [true, false])
    }

    @Test("seeded inputs build the same bytes, or fail the same way, read in place and through Mirror")
    func seededInputs() async {
        var generator = SeededGenerator(seed: 23)
        var built: [String: Int] = [:]
        for index in 0..<600 {
            // Seconds of computing: let the other tests' tasks have the pool's few threads too.
            if index % 10 == 0 { await Task.yield() }
            let count = Int.random(in: 0...160, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let outcomes = ReadingCorpus.outcomes(for: bytes)
            #expect(outcomes.planned == outcomes.mirrored, "input \(bytes): \(outcomes.type)")
            let type = String(outcomes.type.prefix { $0 != " " })
            built[type, default: 0] += outcomes.planned.hasPrefix("error ") ? 0 : 1
        }
        // Errors are compared too, but a corpus that only ever failed would compare little.
        for (name, _) in ReadingCorpus.types where name != "Conflicting" {
            #expect(built[name, default: 0] >= 10, "\(name) built \(built[name, default: 0]) requests")
        }
    }
}
