"""Tables, error lines and argument declarations of nova-manage."""

from nova.cmd import manage_common


def test_table_looks_like_upstreams():
    table = manage_common.format_table(
        ["Name", "UUID"], [["cell0", "00000000"], ["cell-long-name", None]]
    )
    assert table.splitlines() == [
        "+----------------+----------+",
        "|      Name      |   UUID   |",
        "+----------------+----------+",
        "|     cell0      | 00000000 |",
        "| cell-long-name |   None   |",
        "+----------------+----------+",
    ]


def test_empty_table_has_only_headers():
    assert manage_common.format_table(["A"], []).splitlines() == [
        "+---+",
        "| A |",
        "+---+",
    ]


def test_error_is_one_masked_line(capsys):
    manage_common.error(
        "cannot reach mysql://nova:s3cret@db/nova\n(background: "
        "rabbit://u:p@mq1,u:p@mq2/)"
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "ERROR: cannot reach mysql://nova:****@db/nova (background: "
        "rabbit://u:****@mq1,u:****@mq2/)\n"
    )


def test_mask_urls_inside_quoted_sql_parameters():
    text = "[parameters: ('cell1', 'postgresql://nova:s3cret@db/nova_cell1')]"
    assert "s3cret" not in manage_common.mask_urls(text)


def test_args_keep_their_written_order():
    @manage_common.args("--first")
    @manage_common.args("--second", dest="two")
    def action(first=None, two=None):
        """An action."""

    assert action.manage_args == [(("--first",), {}), (("--second",), {"dest": "two"})]
