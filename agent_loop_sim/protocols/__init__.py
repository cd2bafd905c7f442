"""The protocol models: pure state machines, messages in and messages out."""
