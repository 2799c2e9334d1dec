// A module other modules use only when they import it.
public enum Beacon { case dark, lit, flashing }
public enum Trigger { case on, off, blink }
