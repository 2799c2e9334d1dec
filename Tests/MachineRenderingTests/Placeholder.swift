import XCTest
final class MachineRenderingTestsPlaceholder: XCTestCase { func testNothing() {} }
