"""The host's connection to the MQTT broker (paho-mqtt): the broker's address, user and TLS,
reconnection, and the messages in and out. What they mean is session.py's.

`mqtt://host:1883` (the default, a Mosquitto on this computer), `mqtts://host:8883` (TLS, the
system's certificates or --broker-ca), `ws://host:9001/` and `wss://...` (MQTT over
WebSockets, as browsers speak it). paho reconnects by itself, from 0.25 s up to every 4 s; on
every connection the session subscribes again and publishes its retained messages again, so a
broker restarted without its store (Mosquitto's default) has the game back at once.
"""

import ssl
import threading
import uuid
from urllib.parse import urlsplit

# Imported with this module, before a simulated board puts its virtual-time `time` module in
# sys.modules (host_sim/simboard.py): paho's reconnecting waits must take real time.
import paho.mqtt.client as mqtt

PORTS = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}
DEFAULT_BROKER = "mqtt://localhost:1883"
KEEPALIVE_S = 5              # a host gone without a word is "offline" after about 8 s


class BrokerAddress:
    """A broker URL, checked: scheme, host, port, path (WebSockets)."""

    def __init__(self, url):
        parts = urlsplit(url if "://" in url else "mqtt://" + url)
        if parts.scheme not in PORTS:
            raise ValueError("a broker address starts mqtt://, mqtts://, ws:// or wss://, not "
                             "%r" % url[:60])
        if not parts.hostname:
            raise ValueError("no broker host in %r" % url[:60])
        try:
            self.port = parts.port or PORTS[parts.scheme]
        except ValueError:
            raise ValueError("bad broker port in %r" % url[:60])
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.path = parts.path or "/"
        self.tls = parts.scheme in ("mqtts", "wss")
        self.websockets = parts.scheme in ("ws", "wss")

    def __str__(self):
        path = self.path if self.websockets else ""
        return "%s://%s:%d%s" % (self.scheme, self.host, self.port, path)


class MqttLink:
    """One client of the broker, subscribed to `topics` (a filter) on every connection.
    `on_message(topic, payload)` and `on_connected()` are called from paho's thread;
    `status()` says how the connection is."""

    def __init__(self, address, topics, on_message, on_connected, username=None, password=None,
                 ca_file=None, client_id=None):
        self.address = address
        self.topics = topics
        self._on_message = on_message
        self._on_connected = on_connected
        self._lock = threading.Lock()
        self.connected = False
        self.error = None
        self.connections = 0
        self.will_side = None             # the side whose presence the will says is gone
        self.refused = None               # why the broker refused the last connection
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id or "iago-" + uuid.uuid4().hex[:12],
            transport="websockets" if address.websockets else "tcp",
            protocol=mqtt.MQTTv311)
        if address.websockets:
            self.client.ws_set_options(path=address.path)
        if username is not None:
            self.client.username_pw_set(username, password)
        if address.tls:
            self.client.tls_set(ca_certs=ca_file, cert_reqs=ssl.CERT_REQUIRED)
        self.client.reconnect_delay_set(min_delay=0.25, max_delay=4)
        self.client.max_queued_messages_set(1000)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_connect_fail = self._unreachable
        self.client.on_message = lambda client, userdata, msg: self._on_message(
            msg.topic, msg.payload)

    def will(self, topic, payload):
        """The message the broker publishes (retained) when this host vanishes."""
        self.client.will_set(topic, payload, qos=1, retain=True)

    def start(self):
        self.client.connect_async(self.address.host, self.address.port, KEEPALIVE_S)
        self.client.loop_start()

    def stop(self, last=None):
        """Disconnect, first publishing `last` (topic, payload) retained if connected."""
        if last is not None and self.connected:
            info = self.client.publish(last[0], last[1], qos=1, retain=True)
            try:
                info.wait_for_publish(2)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, topic, payload, retain=False):
        """Queued while the broker is away, sent once it is back (QoS 1)."""
        self.client.publish(topic, payload, qos=1, retain=retain)

    def status(self):
        return {"broker": str(self.address), "connected": self.connected, "error": self.error}

    def _connected(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            self.connected = False
            self.refused = "the broker refused the connection: %s (check --broker-user and " \
                "the password)" % reason_code
            self.error = self.refused
            return
        self.refused = None
        self.connected = True
        self.error = None
        self.connections += 1
        self.client.subscribe(self.topics, qos=1)
        self._on_connected()

    def _unreachable(self, client, userdata):
        self.connected = False
        self.error = "cannot reach the broker at %s: retrying" % self.address

    def _disconnected(self, client, userdata, flags, reason_code, properties):
        self.connected = False
        if reason_code.is_failure:   # a refusal is said as such, not as the loss that follows
            self.error = self.refused or "lost the broker (%s): reconnecting" % reason_code
