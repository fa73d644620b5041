#!/bin/bash
# shellcheck disable=SC2154  # DevStack's variables ($REGION_NAME, ...) come from stack.sh
#
# DevStack plugin: installs, configures and runs the from-scratch Nova in
# place of upstream's (see settings). DevStack calls this file as
#
#   plugin.sh stack pre-install|install|post-config|extra|test-config
#   plugin.sh unstack
#   plugin.sh clean
#
# with its own functions (iniset, run_process, recreate_database, ...) and
# variables in scope. The layout is upstream's cells v2 one: nova.conf for
# the API-level services (API database, cell0, the API vhost; with it
# nova-conductor is the superconductor), nova-cell1.conf for cell1's
# conductor and the compute (cell1's database and vhost), nova-compute.conf
# for the compute host's own settings.

NOVA_FS_BIN_DIR=$(get_python_exec_prefix)

function nova_fs_service_client {
    # keystoneauth options of the nova service user in group $2 of file $1.
    local conf=$1 group=$2
    iniset "$conf" "$group" auth_type password
    iniset "$conf" "$group" auth_url "$KEYSTONE_SERVICE_URI"
    iniset "$conf" "$group" username nova
    iniset "$conf" "$group" password "$SERVICE_PASSWORD"
    iniset "$conf" "$group" project_name "$SERVICE_PROJECT_NAME"
    iniset "$conf" "$group" user_domain_name "$SERVICE_DOMAIN_NAME"
    iniset "$conf" "$group" project_domain_name "$SERVICE_DOMAIN_NAME"
    iniset "$conf" "$group" region_name "$REGION_NAME"
}

function nova_fs_common_config {
    # What every nova service reads: state, lock path, service clients.
    local conf=$1 transport_url=$2
    iniset "$conf" DEFAULT transport_url "$transport_url"
    iniset "$conf" DEFAULT state_path "$NOVA_FS_STATE_PATH"
    iniset "$conf" DEFAULT my_ip "$HOST_IP"
    iniset "$conf" oslo_concurrency lock_path "$NOVA_FS_STATE_PATH/lock"
    nova_fs_service_client "$conf" placement
    nova_fs_service_client "$conf" glance
    # Volumes (os-volume_attachments) through DevStack's Cinder, when it runs.
    if is_service_enabled cinder; then
        nova_fs_service_client "$conf" cinder
        iniset "$conf" cinder os_region_name "$REGION_NAME"
    fi
}

function install_nova_fs {
    setup_develop "$NOVA_FS_DIR"
    if [[ $NOVA_FS_COMPUTE_DRIVER == libvirt.* ]]; then
        install_package libvirt-daemon-system qemu-system-x86 python3-libvirt
    fi
    if is_service_enabled nova-spicehtml5proxy; then
        install_package spice-html5
    fi
}

function nova_fs_console_config {
    # The consoles whose proxy is enabled: on in the API (which hands out
    # their URLs), the proxy and the compute (which gives guests them).
    local conf=$1
    if is_service_enabled nova-serialproxy; then
        iniset "$conf" serial_console enabled True
        iniset "$conf" serial_console base_url "ws://$SERVICE_HOST:$NOVA_FS_SERIALPROXY_PORT/"
        iniset "$conf" serial_console serialproxy_host "$SERVICE_LISTEN_ADDRESS"
        iniset "$conf" serial_console serialproxy_port "$NOVA_FS_SERIALPROXY_PORT"
        iniset "$conf" serial_console proxyclient_address "$HOST_IP"
    fi
    if is_service_enabled nova-spicehtml5proxy; then
        iniset "$conf" spice enabled True
        iniset "$conf" spice html5proxy_base_url \
            "http://$SERVICE_HOST:$NOVA_FS_SPICEHTML5PROXY_PORT/spice_auto.html"
        iniset "$conf" spice html5proxy_host "$SERVICE_LISTEN_ADDRESS"
        iniset "$conf" spice html5proxy_port "$NOVA_FS_SPICEHTML5PROXY_PORT"
        iniset "$conf" spice server_listen "$HOST_IP"
        iniset "$conf" spice server_proxyclient_address "$HOST_IP"
    fi
}

function configure_nova_fs {
    sudo install -d -o "$STACK_USER" "$NOVA_FS_CONF_DIR" "$NOVA_FS_STATE_PATH"
    rm -f "$NOVA_FS_CONF" "$NOVA_FS_CELL1_CONF" "$NOVA_FS_COMPUTE_CONF"

    rpc_backend_add_vhost nova_cell1
    local api_transport cell1_transport
    api_transport=$(get_transport_url)
    cell1_transport=$(get_transport_url nova_cell1)

    nova_fs_common_config "$NOVA_FS_CONF" "$api_transport"
    iniset "$NOVA_FS_CONF" DEFAULT osapi_compute_listen "$SERVICE_LISTEN_ADDRESS"
    iniset "$NOVA_FS_CONF" DEFAULT osapi_compute_listen_port "$NOVA_FS_API_PORT"
    iniset "$NOVA_FS_CONF" api auth_strategy keystone
    iniset "$NOVA_FS_CONF" api_database connection "$(database_connection_url nova_api)"
    iniset "$NOVA_FS_CONF" database connection "$(database_connection_url nova_cell0)"
    iniset "$NOVA_FS_CONF" scheduler discover_hosts_in_cells_interval 60
    configure_keystone_authtoken_middleware "$NOVA_FS_CONF" nova

    nova_fs_common_config "$NOVA_FS_CELL1_CONF" "$cell1_transport"
    iniset "$NOVA_FS_CELL1_CONF" database connection "$(database_connection_url nova_cell1)"

    nova_fs_console_config "$NOVA_FS_CONF"
    nova_fs_console_config "$NOVA_FS_CELL1_CONF"

    iniset "$NOVA_FS_COMPUTE_CONF" DEFAULT host "$(hostname)"
    iniset "$NOVA_FS_COMPUTE_CONF" DEFAULT compute_driver "$NOVA_FS_COMPUTE_DRIVER"
    if [[ $NOVA_FS_COMPUTE_DRIVER == libvirt.* ]]; then
        iniset "$NOVA_FS_COMPUTE_CONF" libvirt virt_type "${LIBVIRT_TYPE:-qemu}"
    fi
}

function init_nova_fs {
    local database
    for database in nova_api nova_cell0 nova_cell1; do
        recreate_database "$database"
    done
    create_service_user nova admin
    get_or_create_service nova compute "Compute Service"
    get_or_create_endpoint compute "$REGION_NAME" \
        "$SERVICE_PROTOCOL://$SERVICE_HOST:$NOVA_FS_API_PORT/v2.1"

    local manage=("$NOVA_FS_BIN_DIR/nova-manage" --config-file "$NOVA_FS_CONF")
    "${manage[@]}" api_db sync
    "${manage[@]}" cell_v2 map_cell0 --database_connection "$(database_connection_url nova_cell0)"
    "${manage[@]}" cell_v2 create_cell --name cell1 \
        --transport-url "$(get_transport_url nova_cell1)" \
        --database_connection "$(database_connection_url nova_cell1)"
    # Without --local_cell: cell0, then every mapped cell.
    "${manage[@]}" db sync
}

function start_nova_fs {
    local api=(--config-file "$NOVA_FS_CONF")
    local cell=(--config-file "$NOVA_FS_CELL1_CONF")
    run_process nova-api "$NOVA_FS_BIN_DIR/nova-api ${api[*]}"
    run_process nova-scheduler "$NOVA_FS_BIN_DIR/nova-scheduler ${api[*]}"
    run_process nova-conductor "$NOVA_FS_BIN_DIR/nova-conductor ${api[*]}"
    run_process nova-cell1-conductor "$NOVA_FS_BIN_DIR/nova-conductor ${cell[*]}"
    run_process nova-compute \
        "$NOVA_FS_BIN_DIR/nova-compute ${cell[*]} --config-file $NOVA_FS_COMPUTE_CONF"
    # Cell1's console proxies, if enabled (DevStack's run_process checks).
    run_process nova-serialproxy "$NOVA_FS_BIN_DIR/nova-serialproxy ${cell[*]}"
    run_process nova-spicehtml5proxy "$NOVA_FS_BIN_DIR/nova-spicehtml5proxy ${cell[*]}"
    if ! wait_for_service "$SERVICE_TIMEOUT" "$SERVICE_PROTOCOL://$SERVICE_HOST:$NOVA_FS_API_PORT/"; then
        die $LINENO "nova-api did not start"
    fi
}

function create_nova_fs_flavors {
    local flavor id name ram disk vcpus
    for flavor in "${NOVA_FS_FLAVORS[@]}"; do
        read -r id name ram disk vcpus <<< "$flavor"
        if ! openstack --os-cloud devstack-admin flavor show "$id" > /dev/null 2>&1; then
            openstack --os-cloud devstack-admin flavor create --id "$id" \
                --ram "$ram" --disk "$disk" --vcpus "$vcpus" "$name"
        fi
    done
}

function discover_nova_fs_hosts {
    # The compute registers itself in cell1; map it so it can be scheduled to.
    local manage=("$NOVA_FS_BIN_DIR/nova-manage" --config-file "$NOVA_FS_CONF")
    local attempt
    for attempt in $(seq 30); do
        "${manage[@]}" cell_v2 discover_hosts
        if "${manage[@]}" cell_v2 list_hosts | grep -qw "$(hostname)"; then
            return 0
        fi
        echo "waiting for nova-compute to register (attempt $attempt)"
        sleep 2
    done
    die $LINENO "nova-compute did not register in cell1"
}

function stop_nova_fs {
    local service
    for service in nova-spicehtml5proxy nova-serialproxy nova-compute \
        nova-cell1-conductor nova-conductor nova-scheduler nova-api; do
        stop_process "$service"
    done
}

function cleanup_nova_fs {
    sudo rm -rf "$NOVA_FS_STATE_PATH"
    rm -f "$NOVA_FS_CONF" "$NOVA_FS_CELL1_CONF" "$NOVA_FS_COMPUTE_CONF"
}

if [[ "$1" == "stack" ]]; then
    case "$2" in
        install)
            echo_summary "Installing the from-scratch Nova"
            install_nova_fs
            ;;
        post-config)
            echo_summary "Configuring the from-scratch Nova"
            configure_nova_fs
            init_nova_fs
            ;;
        extra)
            echo_summary "Starting the from-scratch Nova"
            start_nova_fs
            discover_nova_fs_hosts
            create_nova_fs_flavors
            ;;
    esac
elif [[ "$1" == "unstack" ]]; then
    stop_nova_fs
elif [[ "$1" == "clean" ]]; then
    cleanup_nova_fs
fi
