import XCTest
final class MachineExtractionTestsPlaceholder: XCTestCase { func testNothing() {} }
