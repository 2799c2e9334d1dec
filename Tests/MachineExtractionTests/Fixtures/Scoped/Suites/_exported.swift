@_exported import Actomaton
