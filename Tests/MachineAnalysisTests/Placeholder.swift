import XCTest
final class MachineAnalysisTestsPlaceholder: XCTestCase { func testNothing() {} }
